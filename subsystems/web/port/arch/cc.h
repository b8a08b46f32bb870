/*
 * arch/cc.h - lwIP's compiler and platform port: musl's types and a diagnostic that goes
 * to our console.  An lwIP assertion is a bug of ours or of lwIP's, never of a peer's
 * (lwIP checks what it receives): it stops this program only, with its message.
 */
#ifndef LWIP_ARCH_CC_H
#define LWIP_ARCH_CC_H

#include <stdio.h>
#include <stdlib.h>

#define LWIP_PLATFORM_DIAG(x) \
	do {                  \
		printf x;     \
	} while (0)
#define LWIP_PLATFORM_ASSERT(x)                                                            \
	do {                                                                               \
		printf("lwip: assertion \"%s\" failed at %s:%d\n", x, __FILE__, __LINE__); \
		abort();                                                                   \
	} while (0)
#define LWIP_NO_STDINT_H   0
#define LWIP_NO_INTTYPES_H 0
#define LWIP_NO_CTYPE_H	   0
#define BYTE_ORDER	   LITTLE_ENDIAN

#endif
