#!/usr/bin/env python3
# htmlcheck.py - a strict check of the HTML eval/report.sh writes (eval/test.sh runs it):
# a doctype first, every element closed in order (void elements excepted), no bare '&' or
# unknown entity (text taken from logs must be escaped), every <img> with an alt and a src
# that exists beside the page.  Prints one "FILE:LINE: error" per problem; exit status 1 if any.
# Python's html.parser is lenient by design, so the strictness is here, not in the parser.
# Usage: htmlcheck.py FILE.html
import html.entities
import html.parser
import os
import sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Checker(html.parser.HTMLParser):
    def __init__(self, path):
        super().__init__(convert_charrefs=False)
        self.path = path
        self.dir = os.path.dirname(path)
        self.open = []  # (tag, line) of the elements not yet closed
        self.errors = []
        self.seen_doctype = False
        self.seen_element = False

    def error_at(self, msg):
        self.errors.append(f"{self.path}:{self.getpos()[0]}: {msg}")

    def handle_decl(self, decl):
        if decl.lower() != "doctype html" or self.seen_element:
            self.error_at(f"unexpected declaration <!{decl}>")
        self.seen_doctype = True

    def handle_starttag(self, tag, attrs):
        if not self.seen_doctype and not self.seen_element:
            self.error_at("no <!DOCTYPE html> before the first element")
        self.seen_element = True
        if tag == "img":
            self.check_img(dict(attrs))
        if tag not in VOID:
            self.open.append((tag, self.getpos()[0]))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.open.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            self.error_at(f"</{tag}> closes a void element")
        elif not self.open:
            self.error_at(f"</{tag}> closes nothing")
        elif self.open[-1][0] != tag:
            self.error_at(f"</{tag}> closes <{self.open[-1][0]}> of line {self.open[-1][1]}")
            # resynchronise on the nearest matching element, so one slip is one error
            names = [t for t, _ in self.open]
            if tag in names:
                del self.open[len(names) - 1 - names[::-1].index(tag):]
        else:
            self.open.pop()

    def handle_data(self, data):
        if "&" in data:
            self.error_at(f"bare '&' in text: {data.strip()[:60]!r}")

    def handle_entityref(self, name):
        if name not in html.entities.name2codepoint:
            self.error_at(f"unknown entity &{name};")

    def check_img(self, attrs):
        if not attrs.get("alt"):
            self.error_at("<img> without alt text")
        src = attrs.get("src") or ""
        if not os.path.isfile(os.path.join(self.dir, src)):
            self.error_at(f"<img> src '{src}' is not a file beside the page")

    def finish(self):
        self.close()
        for tag, line in self.open:
            self.errors.append(f"{self.path}:{line}: <{tag}> is never closed")
        if not self.seen_element:
            self.errors.append(f"{self.path}: no elements")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: htmlcheck.py FILE.html")
    checker = Checker(sys.argv[1])
    with open(sys.argv[1], encoding="utf-8") as f:
        checker.feed(f.read())
    checker.finish()
    for e in checker.errors:
        print(e)
    sys.exit(1 if checker.errors else 0)


if __name__ == "__main__":
    main()
