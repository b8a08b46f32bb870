/*
 * heap.c - malloc and friends for every component, replacing musl's (whose brk/mmap
 * growth has no meaning here).  Memory comes from pages.c.  Blocks of 32..2048 bytes come
 * from power-of-two size classes; larger ones are whole pages.  Every block carries a
 * 16-byte header, so free() needs no search and catches pointers it never handed out.
 */
#include "pages.h"
#include "runtime.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC	  0x48656170u /* "Heap" */
#define CLASS_MIN 5	      /* 32 bytes */
#define CLASS_MAX 11	      /* 2048 bytes */
#define LARGE	  0xff
#define ALIGNED	  0xfe

struct hdr {
	uint32_t magic;
	uint32_t kind; /* size class, LARGE or ALIGNED */
	uint64_t n;    /* LARGE: pages; ALIGNED: bytes back to the real block */
};

static void *classes[CLASS_MAX + 1];
static struct hr_lock lock;

void *malloc(size_t size);
void free(void *p);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t size);
void *aligned_alloc(size_t align, size_t size);
int posix_memalign(void **out, size_t align, size_t size);
void *memalign(size_t align, size_t size);
size_t malloc_usable_size(void *p);

static int
class_of(size_t size)
{
	int k = CLASS_MIN;
	while (((size_t) 1 << k) < size + sizeof(struct hdr))
		k++;
	return k;
}

/* Carve a fresh page into blocks of class k; 0 if no page is left. */
static int
refill(int k)
{
	uint64_t page = pages_alloc(1);
	size_t bs = (size_t) 1 << k;

	if (!page)
		return 0;
	for (size_t off = 0; off + bs <= HR_PAGE_SIZE; off += bs) {
		void **b = (void **) (page + off);
		*b = classes[k];
		classes[k] = b;
	}
	return 1;
}

static void *
small(size_t size)
{
	int k = class_of(size);
	struct hdr *h = 0;

	hr_lock_take(&lock);
	if (classes[k] || refill(k)) {
		h = classes[k];
		classes[k] = *(void **) h;
	}
	hr_lock_give(&lock);
	if (!h)
		return 0;
	*h = (struct hdr){ MAGIC, (uint32_t) k, 0 };
	return h + 1;
}

static void *
large(size_t size)
{
	uint64_t n = (size + sizeof(struct hdr) + HR_PAGE_SIZE - 1) / HR_PAGE_SIZE;
	struct hdr *h = (struct hdr *) pages_alloc(n);

	if (!h)
		return 0;
	*h = (struct hdr){ MAGIC, LARGE, n };
	return h + 1;
}

/* malloc's work.  calloc calls this rather than malloc: the compiler turns malloc followed
 * by a memset of zeros into a call to calloc, which would then call itself. */
static void *
alloc(size_t size)
{
	void *p;

	if (size > ((size_t) 1 << 40))
		p = 0;
	else if (size + sizeof(struct hdr) <= ((size_t) 1 << CLASS_MAX))
		p = small(size);
	else
		p = large(size);
	if (!p)
		errno = ENOMEM;
	return p;
}

void *
malloc(size_t size)
{
	return alloc(size);
}

static struct hdr *
header(void *p)
{
	struct hdr *h = (struct hdr *) p - 1;

	if (h->magic != MAGIC)
		hr_die("heap: free or realloc of %p, which malloc never returned", p);
	if (h->kind == ALIGNED)
		return header((char *) p - h->n);
	return h;
}

void
free(void *p)
{
	struct hdr *h;

	if (!p)
		return;
	h = header(p);
	h->magic = 0;
	if (h->kind == LARGE) {
		pages_free((uint64_t) h, h->n);
		return;
	}
	hr_lock_take(&lock);
	*(void **) h = classes[h->kind];
	classes[h->kind] = h;
	hr_lock_give(&lock);
}

size_t
malloc_usable_size(void *p)
{
	struct hdr *h;
	size_t total;

	if (!p)
		return 0;
	h = header(p);
	total = h->kind == LARGE ? h->n * HR_PAGE_SIZE : (size_t) 1 << h->kind;
	return total - (size_t) ((char *) p - (char *) h);
}

void *
calloc(size_t n, size_t size)
{
	void *p;

	if (size && n > (size_t) -1 / size) {
		errno = ENOMEM;
		return 0;
	}
	if ((p = alloc(n * size)))
		memset(p, 0, n * size);
	return p;
}

void *
realloc(void *p, size_t size)
{
	void *q;
	size_t old;

	if (!p)
		return malloc(size);
	old = malloc_usable_size(p);
	if (size <= old)
		return p;
	if (!(q = malloc(size)))
		return 0;
	memcpy(q, p, old);
	free(p);
	return q;
}

void *
aligned_alloc(size_t align, size_t size)
{
	char *raw, *p;

	if (!align || (align & (align - 1)) || align > HR_PAGE_SIZE) {
		errno = EINVAL;
		return 0;
	}
	if (align <= sizeof(struct hdr))
		return malloc(size);
	if (!(raw = malloc(size + align + sizeof(struct hdr))))
		return 0;
	p = (char *) (((uintptr_t) raw + sizeof(struct hdr) + align - 1) &
		      ~(uintptr_t) (align - 1));
	*((struct hdr *) p - 1) = (struct hdr){ MAGIC, ALIGNED, (uint64_t) (p - raw) };
	/* raw is found again from p's header, which records the distance back to it */
	// cppcheck-suppress memleak
	return p;
}

int
posix_memalign(void **out, size_t align, size_t size)
{
	void *p;

	if (align % sizeof(void *))
		return EINVAL;
	if (!(p = aligned_alloc(align, size)))
		return errno;
	*out = p;
	return 0;
}

void *
memalign(size_t align, size_t size)
{
	return aligned_alloc(align, size);
}
