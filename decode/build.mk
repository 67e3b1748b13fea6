# decode: sources of this unit (see the top-level Makefile).
