/*
 * lines.h - where each node and property of the manifest is: its source line and the form
 * its value was written in.  Read from dtc's annotated output (`dtc -O dts -T -T`), in
 * which every node and property line ends with a comment such as FILE:12:3-12:20.
 */
#ifndef IMAGES_LINES_H
#define IMAGES_LINES_H

/* How a property's value was written: a blob alone cannot tell "abc" from <0x61626300>. */
enum lines_form {
	FORM_UNKNOWN = 0,
	FORM_EMPTY = 1,	 /* `name;` */
	FORM_STRING = 2, /* "..." */
	FORM_CELLS = 4,	 /* <...> of 32-bit cells */
	FORM_OTHER = 8,	 /* [bytes], /bits/ N <...>, &reference */
	FORM_MANY = 16,	 /* more than one comma-separated piece */
};

/*
 * Learn the lines from `dts`, dtc's annotated output for the manifest `path`.  What comes
 * from an included file gets the line of the manifest's directive for it (source.h).
 * Paths are built as node_path() builds them (names cut to PATH_NAME_MAX); nodes more than
 * NEST_MAX + 1 levels below "/" are not recorded.  Replaces any earlier map.
 */
void lines_read(const char *dts, const char *path);

/* Line of the node with the full path `path` ("/" or "/demo/root"); 0 if unknown. */
int lines_node(const char *path);

/* Line of property `prop` of the node at `path`, and its form; 0 and FORM_UNKNOWN if unknown. */
int lines_prop(const char *path, const char *prop, unsigned *form);

/* Line of the last property `prop` of `path`: dtc forced past a duplicate lists both. */
int lines_prop_last(const char *path, const char *prop);

#endif
