# One scenario's activities called in this process, timed from the first call to the last
# answer (the modules are imported before the clock starts): the Python originals' side of the
# in-process figures. Prints {"seconds": ...} last.
#   python bench/in-process.py '<steps as JSON>'
import importlib
import json
import sys
import time

steps = json.loads(sys.argv[1])
functions = [getattr(importlib.import_module(s["module"]), s["func"]) for s in steps]
t0 = time.perf_counter()
for function, step in zip(functions, steps):
    function(**step["args"])
print(json.dumps({"seconds": time.perf_counter() - t0}))
