# lava: pebsprobe's LAVA jobs and device descriptions (docs/LAVA.md).
#   make lava-check   runs the jobs through lava-run on this machine (root)
#                     and compares LAVA's test cases with results.json.
# lava-dispatcher is installed for this target only (tools/deps.sh lava).
.PHONY: lava-check
lava-check: $(BUILD)/usb.img
	tools/deps.sh lava
	/usr/bin/python3 lava/lava_check.py $(BUILD)
