# Makefile - the one entry point of the HiRES distribution.  `make help` lists the targets.
#
# Non-recursive: each directory's build.mk declares its sources and programs; every recipe
# is here.  Output goes to build/ only.  Quiet by default; V=1 echoes commands.

.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:
SHELL := /bin/bash

B := build
V ?= 0
Q := $(if $(filter 1,$(V)),,@)
say = $(if $(filter 1,$(V)),,@printf '  %-8s %s\n' $(1) $(2);)

WARN := -Wall -Wextra -Werror -Wstrict-prototypes -Wmissing-prototypes -Wshadow -Wundef \
	-Wpointer-arith -Wvla -Wformat=2

KCC := gcc
KCFLAGS := -std=gnu11 -O2 -g -ffreestanding -nostdlib -nostdinc -isystem $(shell gcc -print-file-name=include) \
	-mno-red-zone -mcmodel=kernel -mno-sse -mno-mmx -mno-80387 -fno-stack-protector \
	-fno-pic -fno-pie -fno-asynchronous-unwind-tables -fomit-frame-pointer \
	$(WARN) -Wswitch-enum -Ikernel -MMD -MP
KLDFLAGS := -nostdlib -static -no-pie -z max-page-size=4096 -Wl,--build-id=none \
	-Wl,--no-warn-rwx-segments

UCC := musl-gcc
UCFLAGS := -std=gnu11 -O2 -g -fno-pie $(WARN) -I. -I$(B)/fdt-include -MMD -MP
ULDFLAGS := -static -no-pie
LIBFDT := /usr/lib/x86_64-linux-gnu/libfdt.a

HCC := gcc
HCFLAGS := -std=gnu11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer $(WARN) -I. -Ikernel -Itests/host -MMD -MP

include lib/build.mk
include kernel/build.mk
include rm/build.mk
include policies/build.mk
include subsystems/build.mk
include images/build.mk
include tests/build.mk
include eval/build.mk

# ---- dependencies (Debian packages), installed once -----------------------------------
DEPS := $(B)/.deps
$(DEPS): mk/deps.sh
	$(Q)mkdir -p $(B)
	$(Q)sh mk/deps.sh
	$(Q)touch $@

.PHONY: deps
deps: $(DEPS)

# ---- kernel -----------------------------------------------------------------------------
KOBJS := $(patsubst %,$(B)/k/%.o,$(KERNEL_SRCS) $(KERNEL_ASMS))

$(B)/k/%.c.o: %.c | $(DEPS)
	$(call say,KCC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(KCC) $(KCFLAGS) -c $< -o $@

$(B)/k/%.S.o: %.S | $(DEPS)
	$(call say,KAS,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(KCC) $(KCFLAGS) -c $< -o $@

$(B)/kernel.elf: $(KOBJS) $(KERNEL_LDS)
	$(call say,LD,$@)
	$(Q)$(KCC) $(KLDFLAGS) -T $(KERNEL_LDS) -o $@ $(KOBJS) -lgcc

# ---- user level: rm/ and policies/ as one library, one ELF per subsystem program ------
$(B)/fdt-include/libfdt.h: | $(DEPS)
	$(Q)mkdir -p $(@D)
	$(Q)cp /usr/include/fdt.h /usr/include/libfdt.h /usr/include/libfdt_env.h $(@D)/

UOBJS_LIB := $(patsubst %,$(B)/u/%.o,$(RM_SRCS) $(POLICY_SRCS))

$(B)/u/%.c.o: %.c $(B)/fdt-include/libfdt.h | $(DEPS)
	$(call say,UCC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(UCC) $(UCFLAGS) -c $< -o $@

$(B)/u/%.S.o: %.S | $(DEPS)
	$(call say,UAS,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(UCC) $(UCFLAGS) -c $< -o $@

$(B)/librm.a: $(UOBJS_LIB)
	$(call say,AR,$@)
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

# program P is every .c/.S file in subsystems/P, linked with the libraries it names in
# PROGRAM_LIBS_P (subsystems/build.mk), librm and libfdt
define program_rule
$(B)/prog/$(1).elf: $(patsubst %,$(B)/u/%.o,$(wildcard subsystems/$(1)/*.c subsystems/$(1)/*.S)) $(PROGRAM_LIBS_$(1)) $(B)/librm.a
	$$(call say,LD,$$@)
	$(Q)mkdir -p $$(@D)
	$(Q)$(UCC) $(ULDFLAGS) -o $$@ $$(filter %.o,$$^) $(PROGRAM_LIBS_$(1)) $(B)/librm.a $(LIBFDT) $(B)/librm.a
endef
$(foreach p,$(PROGRAMS),$(eval $(call program_rule,$(p))))

PROGRAM_ELFS := $(patsubst %,$(B)/prog/%.elf,$(PROGRAMS))
MODULE_ELFS := $(patsubst %,$(MODULE_DIR)/%.elf,$(PROGRAMS))
$(MODULE_DIR)/%.elf: $(B)/prog/%.elf
	$(call say,STRIP,$@)
	$(Q)mkdir -p $(@D)
	$(Q)strip --strip-debug -o $@ $<

.PHONY: all kernel programs
all: $(B)/kernel.elf $(PROGRAM_ELFS) images
kernel: $(B)/kernel.elf
programs: $(PROGRAM_ELFS)

# ---- lwIP: Debian's source package, fetched and unpacked under build/ (mk/lwip.sh) -------
# Compiled as one library with our port (subsystems/web/port: lwipopts.h, arch/cc.h) for the
# programs that name it in PROGRAM_LIBS_<name> (subsystems/build.mk) and the Linux side of
# the evaluation.  It is third-party code: built with -Wall but not -Werror.
LWIP_DIR := $(B)/lwip-2.1.3
LWIP_STAMP := $(LWIP_DIR)/.unpacked
LWIP_PORT := subsystems/web/port
LWIP_INC := -I$(LWIP_PORT) -I$(LWIP_DIR)/src/include
LWIP_SRCS := core/init.c core/def.c core/inet_chksum.c core/ip.c core/mem.c core/memp.c \
	core/netif.c core/pbuf.c core/stats.c core/sys.c core/tcp.c core/tcp_in.c \
	core/tcp_out.c core/timeouts.c core/ipv4/etharp.c core/ipv4/icmp.c core/ipv4/ip4.c \
	core/ipv4/ip4_addr.c core/ipv4/ip4_frag.c netif/ethernet.c
LWIP_CFLAGS := -std=gnu11 -O2 -g -fno-pie -Wall -Wno-address $(LWIP_INC)
LWIP_OBJS := $(patsubst %,$(B)/lwip/%.o,$(LWIP_SRCS))

$(LWIP_STAMP): mk/lwip.sh | $(DEPS)
	$(Q)sh mk/lwip.sh $(B)
$(LWIP_DIR)/src/%.c: $(LWIP_STAMP) ;
.PRECIOUS: $(LWIP_DIR)/src/%.c # not intermediates: the unpacked source stays

$(B)/lwip/%.c.o: $(LWIP_DIR)/src/%.c $(wildcard $(LWIP_PORT)/*.h $(LWIP_PORT)/arch/*.h)
	$(call say,UCC,$(notdir $<))
	$(Q)mkdir -p $(@D)
	$(Q)$(UCC) $(LWIP_CFLAGS) -c $< -o $@

$(B)/liblwip.a: $(LWIP_OBJS)
	$(call say,AR,$@)
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

# a program's own sources that include lwIP headers: the headers must be unpacked first (an
# explicit prerequisite: a pattern rule without a recipe would not order them)
$(B)/u/subsystems/web/%.c.o: UCFLAGS += $(LWIP_INC)
$(patsubst %,$(B)/u/%.o,$(wildcard subsystems/web/*.c)): $(LWIP_STAMP)

# ---- host tools and host unit tests -------------------------------------------------
$(B)/h/%.c.o: %.c | $(DEPS)
	$(call say,HCC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(HCC) $(HCFLAGS) -c $< -o $@

# host test T links its own file with the pure sources it names in HOST_TEST_DEPS_T
define host_test_rule
$(B)/htest/$(basename $(notdir $(1))): $(B)/h/$(1).o $(patsubst %,$(B)/h/%.o,$(HOST_TEST_DEPS_$(basename $(notdir $(1))))) $(B)/h/tests/host/check.c.o
	$$(call say,HLD,$$@)
	$(Q)mkdir -p $$(@D)
	$(Q)$(HCC) $(HCFLAGS) -o $$@ $$^ $(HOST_TEST_LIBS_$(basename $(notdir $(1))))
endef
$(foreach t,$(HOST_TESTS),$(eval $(call host_test_rule,$(t))))
HOST_TEST_BINS := $(foreach t,$(HOST_TESTS),$(B)/htest/$(basename $(notdir $(t))))

# ---- images (owned by images/) ----
# hrimage checks MANIFEST and writes each image's descriptor, GRUB menu and image.env;
# images/mkiso.sh makes the ISO.  The builder is built without sanitizers (it is a tool,
# and it keeps the parsed manifest until it exits); images/test/run.sh tests it.
HRIMAGE_CFLAGS := -std=gnu11 -O2 -g $(WARN) -I. -MMD -MP
HRIMAGE_OBJS := $(patsubst %,$(B)/host/obj/%.o,$(HRIMAGE_SRCS))
IMAGE_INPUTS := $(HRIMAGE) $(B)/kernel.elf $(MODULE_ELFS) $(MANIFEST) $(TEST_MANIFESTS)
# the image to build or run: IMAGE, else the default (asks hrimage, so MANIFEST errors show)
IMAGE_NAME = name='$(IMAGE)'; [ -n "$$name" ] || name=$$($(HRIMAGE_RUN) --default) || exit 1

$(B)/host/obj/%.c.o: %.c | $(DEPS)
	$(call say,HCC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(HCC) $(HRIMAGE_CFLAGS) -c $< -o $@

$(HRIMAGE): $(HRIMAGE_OBJS)
	$(call say,HLD,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(HCC) -o $@ $^ -lfdt

.PHONY: images image manifest-test
images: $(IMAGE_INPUTS)
	$(Q)$(HRIMAGE_RUN) --out $(IMAGES_OUT)
	$(Q)for n in $$($(HRIMAGE_RUN) --list); do \
		bash images/mkiso.sh $(IMAGES_OUT)/$$n $(B)/kernel.elf $(MODULE_DIR) || exit 1; \
	done

image: $(IMAGE_INPUTS)
	$(Q)$(IMAGE_NAME); $(HRIMAGE_RUN) --out $(IMAGES_OUT) --image "$$name" && \
		bash images/mkiso.sh $(IMAGES_OUT)/$$name $(B)/kernel.elf $(MODULE_DIR)

run: image
	$(Q)$(IMAGE_NAME); bash images/run.sh $(IMAGES_OUT)/$$name/$$name.iso \
		$(if $(filter 1,$(KVM)),--kvm)

manifest-test: $(HRIMAGE)
	$(Q)bash images/test/run.sh $(HRIMAGE)
# ---- end images ----

# ---- eval (owned by eval/) ----
# eval/run.sh boots the images it needs itself (make image); lbench is the Linux side.
$(LBENCH): $(LBENCH_SRC) | $(DEPS)
	$(call say,UCC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(UCC) -std=gnu11 -O2 $(WARN) -I. $(ULDFLAGS) -o $@ $(filter %.c,$^)

$(SERVERS_BIN): $(SERVERS_SRC) | $(DEPS)
	$(call say,HCC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(HCC) $(HCFLAGS) -o $@ $(SERVERS_SRC)

$(LBENCH_CPIO): $(LBENCH) eval/linux/mkinitramfs.sh
	$(call say,CPIO,$@)
	$(Q)bash eval/linux/mkinitramfs.sh $< $@

$(LIRQ): $(LIRQ_SRC) | $(DEPS)
	$(call say,UCC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(UCC) -std=gnu11 -O2 $(WARN) -I. $(ULDFLAGS) -o $@ $(filter %.c,$^)

# IRQ_E1000: the e1000.ko of the kernel eval/linux.sh boots (it finds it: eval/linuxkernel.sh)
$(LIRQ_CPIO): $(LIRQ) eval/linux/mkinitramfs.sh $(IRQ_E1000)
	$(call say,CPIO,$@)
	$(Q)test -n "$(IRQ_E1000)" || { echo "$@: say IRQ_E1000=the e1000.ko of the guest's kernel" >&2; exit 1; }
	$(Q)bash eval/linux/mkinitramfs.sh $< $@ $(IRQ_E1000)=e1000.ko

$(WEBNET): $(WEBNET_SRCS) $(B)/liblwip.a | $(DEPS)
	$(call say,UCC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(UCC) -std=gnu11 -O2 $(WARN) $(LWIP_INC) -I. -Isubsystems/web $(ULDFLAGS) -o $@ \
		$(WEBNET_SRCS) $(B)/liblwip.a

$(WEB_PAGE): eval/linux/webpage.c subsystems/web/pages.c | $(DEPS)
	$(call say,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(HCC) -std=gnu11 -O1 $(WARN) -Isubsystems/web -o $@.gen $^
	$(Q)$@.gen >$@
	$(Q)rm -f $@.gen

# WEB_E1000: the e1000.ko of the kernel eval/web.sh boots (it finds it: eval/linuxkernel.sh)
$(WEB_CPIO): $(WEBNET) $(WEB_PAGE) eval/linux/webinit.sh eval/linux/mkinitramfs.sh $(WEB_E1000)
	$(call say,CPIO,$@)
	$(Q)test -n "$(WEB_E1000)" || { echo "$@: say WEB_E1000=the e1000.ko of the guest's kernel" >&2; exit 1; }
	$(Q)test -x $(WEB_BUSYBOX) || { echo "$@: no $(WEB_BUSYBOX): install busybox-static" >&2; exit 1; }
	$(Q)bash eval/linux/mkinitramfs.sh eval/linux/webinit.sh $@ $(WEBNET)=webnet \
		$(WEB_PAGE)=www/index.html $(WEB_BUSYBOX)=bin/busybox $(WEB_E1000)=e1000.ko

.PHONY: eval eval-quick report
eval: $(IMAGE_INPUTS) $(LBENCH_CPIO) $(LIRQ) $(SERVERS_BIN)
	$(Q)bash eval/run.sh

eval-quick: $(IMAGE_INPUTS) $(LBENCH_CPIO) $(LIRQ) $(SERVERS_BIN)
	$(Q)bash eval/run.sh --quick

# reads what the last eval left in build/eval; runs nothing, so it never triggers a build
report:
	$(Q)bash eval/report.sh
# ---- end eval ----

# ---- top-level targets ------------------------------------------------------------------
.PHONY: help clean run test check bench trace eval format compile_commands.json shellcheck
help:
	@echo "HiRES distribution - targets:"
	@echo "  make run [IMAGE=name]    build and boot an image in QEMU (default image: $(DEFAULT_IMAGE))"
	@echo "  make test                every test: host unit, manifest, image; ends 'N passed, N failed'"
	@echo "  make images              build every image in MANIFEST"
	@echo "  make image IMAGE=name    build one image"
	@echo "  make bench               benchmark image: one 'bench ...' line per figure"
	@echo "  make trace [IMAGE=name]  boot an image with tracing: build/trace/NAME.json for ui.perfetto.dev"
	@echo "  make eval                evaluation experiments (eval/): data, plots, figures"
	@echo "  make eval-quick          a quick pass of every experiment (depths 0, 1 and 16 only)"
	@echo "  make report              build/eval/report.html: the last eval's figures and checks against the paper"
	@echo "  make check               format, static analysis (cppcheck, shellcheck), make test, make eval-quick"
	@echo "  make format              reformat the sources with clang-format"
	@echo "  make shellcheck          shellcheck every script"
	@echo "  make manifest-test       the image builder against the good and bad manifests"
	@echo "  make compile_commands.json  build/compile_commands.json for editors (clangd) and clang tools"
	@echo "  make deps                install the Debian packages the build needs (mk/deps.sh)"
	@echo "  make all|kernel|programs build everything, or pieces;  make clean  removes build/"
	@echo "  variables: V=1 (echo commands), IMAGE=name, KVM=1 (try KVM; untested here, TCG is the default)"

test: $(HOST_TEST_BINS) $(HRIMAGE) images
	$(Q)bash tests/run.sh

# benchmarks run under -icount shift=0, where the guest TSC counts instructions
bench: $(IMAGE_INPUTS)
	$(Q)$(HRIMAGE_RUN) --out $(IMAGES_OUT) --image bench >/dev/null
	$(Q)bash images/mkiso.sh $(IMAGES_OUT)/bench $(B)/kernel.elf $(MODULE_DIR)
	$(Q)bash images/run.sh $(IMAGES_OUT)/bench/bench.iso --icount --timeout 600 | \
		tr -d '\r' | sed -n 's/^\[[^]]*\] \(bench .*\)/\1/p'

# A copy of the image with trace=1 (build/trace/images/NAME), booted under -icount with the
# trace port into build/trace/NAME.raw, decoded to NAME.json; the console goes to NAME.log.
TRACE_OUT := $(B)/trace
trace: $(IMAGE_INPUTS)
	$(Q)$(IMAGE_NAME); d=$(TRACE_OUT)/images/$$name; \
	$(HRIMAGE_RUN) --out $(TRACE_OUT)/images --image "$$name" --trace >/dev/null && \
	bash images/mkiso.sh $$d $(B)/kernel.elf $(MODULE_DIR) && . $$d/image.env && \
	{ bash images/run.sh $$d/$$name.iso --icount --timeout "$$TIMEOUT_S" \
		--trace $(TRACE_OUT)/$$name.raw >$(TRACE_OUT)/$$name.log; \
	  echo "  console: $(TRACE_OUT)/$$name.log (QEMU exit $$?)"; } && \
	python3 images/trace.py $(TRACE_OUT)/$$name.raw $(TRACE_OUT)/$$name.json

# static checks first: formatting, then cppcheck; then every test
CHECK_SRCS = $(shell git ls-files '*.c' '*.h' | grep -v '^images/test/')
check: $(DEPS)
	$(Q)clang-format --dry-run --Werror $(CHECK_SRCS)
	$(Q)bash mk/columns.sh $(CHECK_SRCS) $(shell git ls-files '*.S')
	$(Q)cppcheck --quiet --std=c11 --enable=warning,portability,performance --inline-suppr \
		--error-exitcode=1 --suppress=missingIncludeSystem -D__x86_64__ -I kernel -I . \
		kernel lib rm policies images subsystems tests/host
	$(Q)$(MAKE) --no-print-directory shellcheck
	$(Q)$(MAKE) --no-print-directory test
	$(Q)$(MAKE) --no-print-directory eval-quick

SCRIPTS = $(shell git ls-files '*.sh') .ci/run
shellcheck: $(DEPS)
	$(Q)shellcheck $(SCRIPTS)

# for editors and clang tools: every compile command the build runs, as it runs it
compile_commands.json: $(DEPS)
	$(Q)mkdir -p $(B)
	$(Q)$(MAKE) --no-print-directory -Bn V=1 all $(HOST_TEST_BINS) $(HRIMAGE) $(SERVERS_BIN) \
		2>/dev/null | python3 mk/compdb.py >$(B)/compile_commands.json
	@echo "  wrote $(B)/compile_commands.json ($$(grep -c '"file"' $(B)/compile_commands.json) files)"

format: $(DEPS)
	$(Q)clang-format -i $(CHECK_SRCS)

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
