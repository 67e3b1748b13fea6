# tests/matrix: the run matrix (docs/MATRIX.md).
#   make matrix                      every entry of tests/matrix/default.cfg
#   make matrix MATRIX='skl*' MATRIX_J=1
# Writes $(BUILD)/matrix/ (serial logs, results files, junit.xml).
MATRIX ?=
MATRIX_J ?= 2
MATRIX_FILE ?= tests/matrix/default.cfg

.PHONY: matrix
matrix: $(BUILD)/host/pebs-matrix $(BUILD)/esp.img $(BUILD)/usb.img
	BUILD=$(BUILD) $(BUILD)/host/pebs-matrix --models -f $(MATRIX_FILE) -j $(MATRIX_J) \
		--junit $(BUILD)/matrix/junit.xml $(MATRIX)
