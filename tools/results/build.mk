# tools/results: the Python host tools that read results.json (docs/CI.md,
# docs/REPORT.md, docs/MATRIX.md).  Each is one executable zip archive
# (python3 -m zipapp) of the modules here, so build/host/ holds the whole
# tool and nothing outside it is needed but Debian's python3.
RESULTS_PY := $(wildcard tools/results/*.py)
RESULTS_TOOLS := $(BUILD)/host/pebs-results $(BUILD)/host/pebs-report $(BUILD)/host/pebs-matrix
PYTHON ?= /usr/bin/python3

$(BUILD)/host/pebs-results: ENTRY := pebs_results:main
$(BUILD)/host/pebs-report: ENTRY := pebs_report:main
$(BUILD)/host/pebs-matrix: ENTRY := pebs_matrix:main

$(RESULTS_TOOLS): $(RESULTS_PY) tools/results/build.mk
	@rm -rf $@.stage && mkdir -p $@.stage
	cp $(RESULTS_PY) $@.stage/
	$(PYTHON) -m zipapp $@.stage -o $@.tmp -p '$(PYTHON)' -m '$(ENTRY)'
	@rm -rf $@.stage && chmod 755 $@.tmp && mv $@.tmp $@

HOST_TOOLS += $(RESULTS_TOOLS)
