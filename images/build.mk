# images/build.mk - placeholder until the MANIFEST builder lands.
DEFAULT_IMAGE := default
images:
