/*
 * fwcfg.c - flags the runner hands the kernel through QEMU's firmware configuration device
 * (fw_cfg: a selector port and a data port, a directory of named files at key 0x19).
 *
 * The boot command line is baked into an image's ISO, but some facts belong to one run: is
 * the console a terminal the user watches (images/run.sh passes
 * `-fw_cfg name=opt/hires/terminal,string=1` when its output is one)?  Reading a file that
 * is not there, or a machine without fw_cfg, answers 0.
 */
#include "hw.h"
#include "cpu.h"
#include "kernel.h"

#define FW_SELECT    0x510
#define FW_DATA	     0x511
#define FW_SIGNATURE 0x0000
#define FW_DIR	     0x0019

static void
fw_read(uint16_t key, void *buf, unsigned n)
{
	uint8_t *b = buf;

	if (key != 0xffff)
		outw(FW_SELECT, key);
	for (unsigned i = 0; i < n; i++)
		b[i] = inb(FW_DATA);
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | p[3];
}

int
hw_fwcfg_flag(const char *name)
{
	uint8_t sig[4], n[4], e[64], v = 0;
	size_t len = strlen(name);

	fw_read(FW_SIGNATURE, sig, 4);
	if (memcmp(sig, "QEMU", 4))
		return 0;
	fw_read(FW_DIR, n, 4);
	for (uint32_t i = 0, count = be32(n); i < count && i < 256; i++) {
		fw_read(0xffff, e, sizeof(e)); /* size, select, reserved, name[56] */
		if (len < 56 && !memcmp(e + 8, name, len + 1)) {
			if (be32(e) == 0)
				return 0;
			fw_read((uint16_t) (e[4] << 8 | e[5]), &v, 1);
			return v == '1';
		}
	}
	return 0;
}
