# images/build.mk - the image builder (a host tool) and the images MANIFEST describes.
# Recipes are in the top Makefile's images section; images/README.md says what is here.
MANIFEST := MANIFEST
# each test image lives in its own file beside its expectations (tests/images/NAME.dts and
# NAME.expect); the builder reads them after MANIFEST, as one set of images
TEST_MANIFESTS := $(sort $(wildcard tests/images/*.dts))
HRIMAGE_SRCS := $(wildcard images/*.c) $(LIB_SRCS) policies/admit.c
HRIMAGE := $(B)/host/hrimage
HRIMAGE_RUN = $(HRIMAGE) $(MANIFEST) $(TEST_MANIFESTS) --programs $(MODULE_DIR)
# The programs as images carry them, build/mod/NAME.elf: without the debug sections, which
# nothing at run time reads and which made a module three to four times what it loads (a
# parent's memory holds its children's modules whole, and MANIFEST's budgets count them).
# build/prog keeps them, for symbols.
MODULE_DIR := $(B)/mod
IMAGES_OUT := $(B)/images
# lazily, so that only a target that needs it runs the builder (and shows a MANIFEST error)
DEFAULT_IMAGE = $(shell if [ -x $(HRIMAGE) ]; then $(HRIMAGE_RUN) --default; \
	else echo "(not known until make images has built hrimage)"; fi)
