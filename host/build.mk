# host: sources of this unit (see the top-level Makefile).
# The host platform: lib/platform.h on POSIX, and the stand-in for the real
# hw backend (there is none on the host).  Built into the host library only.
HOST_SRCS += host/platform_host.c host/hw_real_host.c
