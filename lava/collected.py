# SPDX-License-Identifier: MIT
"""collected.py - the files lava/collect.sh printed, read back from a LAVA
job log (docs/LAVA.md "Results and log").

A command action logs each line of its user command's output as a debug
message, "output: LINE" (lava_dispatcher/action.py, Action.run_command and
parsed_command); collect.sh frames each file between
"pebsprobe-collect: begin FILE" and "pebsprobe-collect: end FILE".
files(messages) takes the log's messages in order and returns
{FILE: text}; a file whose end line never came is left out."""

BEGIN = "pebsprobe-collect: begin "
END = "pebsprobe-collect: end "


def files(messages):
    out, name, lines = {}, None, []
    for msg in messages:
        if not isinstance(msg, str):
            continue
        line = msg[len("output: "):] if msg.startswith("output: ") else msg
        line = line.rstrip("\r")
        if name is None:
            if line.startswith(BEGIN):
                name, lines = line[len(BEGIN):], []
        elif line == END + name:
            out[name] = "\n".join(lines) + ("\n" if lines else "")
            name = None
        else:
            lines.append(line)
    return out
