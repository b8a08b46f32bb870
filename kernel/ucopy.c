/* ucopy.c - checked copies between the kernel and a component's memory (ucopy.h). */
#include "ucopy.h"
#include "comp.h"

/* Kernel address of user byte ua if its page is mapped with perms; NULL otherwise. */
static uint8_t *
user_byte(struct comp *c, uint64_t ua, unsigned perms)
{
	uint64_t *e = pt_entry(c->pgtbl, ua & ~(HR_PAGE_SIZE - 1), 0);

	if (!e || !pt_present(*e) || (pt_perms(*e) & perms) != perms)
		return 0;
	return (uint8_t *) hw_phys_to_virt(pt_pa(*e)) + (ua & (HR_PAGE_SIZE - 1));
}

static int
range_ok(uint64_t ua, uint64_t n)
{
	return ua < HR_VA_USER_END && n <= HR_VA_USER_END - ua;
}

long
ucopy_from(struct comp *c, void *dst, uint64_t ua, uint64_t n)
{
	uint8_t *d = dst;

	if (!range_ok(ua, n))
		return HR_EFAULT;
	while (n) {
		uint64_t chunk = MIN(n, HR_PAGE_SIZE - (ua & (HR_PAGE_SIZE - 1)));
		uint8_t *p = user_byte(c, ua, HR_MEM_READ);
		if (!p)
			return HR_EFAULT;
		memcpy(d, p, chunk);
		d += chunk;
		ua += chunk;
		n -= chunk;
	}
	return 0;
}

long
ucopy_to(struct comp *c, uint64_t ua, const void *src, uint64_t n)
{
	const uint8_t *s = src;

	if (!range_ok(ua, n))
		return HR_EFAULT;
	/* check every page first so a failed copy writes nothing */
	for (uint64_t a = ua & ~(HR_PAGE_SIZE - 1); a < ua + n; a += HR_PAGE_SIZE)
		if (!user_byte(c, a, HR_MEM_READ | HR_MEM_WRITE))
			return HR_EFAULT;
	while (n) {
		uint64_t chunk = MIN(n, HR_PAGE_SIZE - (ua & (HR_PAGE_SIZE - 1)));
		memcpy(user_byte(c, ua, HR_MEM_WRITE), s, chunk);
		s += chunk;
		ua += chunk;
		n -= chunk;
	}
	return 0;
}
