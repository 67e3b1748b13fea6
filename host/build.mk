# host: sources of this unit (see the top-level Makefile).
# The host platform: lib/platform.h on POSIX, built into the host library
# only.  The host has no real hw backend: it hands the app none (NULL).
HOST_SRCS += host/platform_host.c
