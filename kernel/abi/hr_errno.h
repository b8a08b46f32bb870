/*
 * hr_errno.h - the closed set of error codes of the HiRES ABI.
 *
 * Every system call and every rm/ service returns 0 or a non-negative result on success
 * and one of these negative codes on failure.  Nothing else is ever returned as an error:
 * a new failure mode maps onto the closest existing code.
 */
#ifndef HR_ERRNO_H
#define HR_ERRNO_H

/* X(name, value, one-line meaning) */
/* clang-format off: a table, aligned by hand */
#define HR_ERRORS(X)                                                             \
	X(HR_EINVAL, -1, "malformed argument (flags, alignment, range)")         \
	X(HR_ECAP, -2, "capability slot empty or of the wrong type")             \
	X(HR_EPERM, -3, "caller lacks authority over the object")                \
	X(HR_ENOMEM, -4, "a bound, quota or kernel pool is exhausted")           \
	X(HR_EFAULT, -5, "user address not mapped with the needed access")       \
	X(HR_EBUSY, -6, "object in use (slot taken, no free invocation stack)")  \
	X(HR_ENOENT, -7, "no such thread, component or mapping")                 \
	X(HR_EFAULTED, -8, "the callee component faulted")                       \
	X(HR_EPEVT, -9, "the parent has events pending for this scheduler")      \
	X(HR_EDEPTH, -10, "a depth bound would be exceeded")                     \
	X(HR_ENOSYS, -11, "no such system call or operation")                    \
	X(HR_EAGAIN, -12, "events arrived meanwhile; retry after handling them") \
	X(HR_EEXIST, -13, "address or slot already in use")                      \
	X(HR_ESTATE, -14, "object is in the wrong state for this operation")     \
	X(HR_ERATE, -15, "over the bandwidth held; retry at the time given")
/* clang-format on */

enum hr_errno {
#define HR_ERRNO_ENUM(name, value, text) name = (value),
	HR_ERRORS(HR_ERRNO_ENUM)
#undef HR_ERRNO_ENUM
};

/* The codes are -1, -2, ...: the most negative is minus how many there are. */
#define HR_ERRNO_ONE(name, value, text) +1
enum { HR_ERRNO_COUNT = 0 HR_ERRORS(HR_ERRNO_ONE) };
#undef HR_ERRNO_ONE
#define HR_ERRNO_MIN (-HR_ERRNO_COUNT)
#define HR_ERRNO_IN_RANGE(name, value, text)                   \
	_Static_assert((value) < 0 && (value) >= HR_ERRNO_MIN, \
		       #name " is one of -1 .. HR_ERRNO_MIN");
HR_ERRORS(HR_ERRNO_IN_RANGE)
#undef HR_ERRNO_IN_RANGE

/* Success values are >= 0; every value in [HR_ERRNO_MIN, -1] is one of the codes above. */
#define HR_IS_ERR(v) ((long) (v) < 0 && (long) (v) >= HR_ERRNO_MIN)

#endif
