#!/usr/bin/env python3
"""Apply ramvram's two small reference patches to a llama.cpp source tree.

Usage: patch_llamacpp.py LLAMA_CPP_DIR   (idempotent)

1. ggml/src/ggml-rpc/ggml-rpc.cpp, rpc_server::get_device_memory: when
   GGML_RPC_FAKE_MEM_MIB is set, the server reports that many MiB free and
   total, so a CPU rpc-server on loopback emulates a GPU of that size.
2. common/fit.cpp, common_fit_print: when RAMVRAM_FIT_BYTES is set,
   `llama-fit-params --fit-print on` prints bytes instead of whole MiB.
Neither changes how llama.cpp sizes or places anything.
"""
import sys

root = sys.argv[1]
PATCHES = [
    ("ggml/src/ggml-rpc/ggml-rpc.cpp",
     "    ggml_backend_dev_memory(dev, &free, &total);\n    response.free_mem = free;",
     "    ggml_backend_dev_memory(dev, &free, &total);\n"
     "    // ramvram reference patch: advertise an emulated device size\n"
     "    if (const char * fake = getenv(\"GGML_RPC_FAKE_MEM_MIB\")) {\n"
     "        free = total = (size_t) strtoull(fake, nullptr, 10) * 1024 * 1024;\n"
     "    }\n"
     "    response.free_mem = free;"),
    ("common/fit.cpp",
     "    for (size_t id = 0; id < devs.size(); id++) {\n        printf(\"%s \",  ggml_backend_dev_name(devs[id]));",
     "    // ramvram reference patch: exact bytes instead of MiB when asked\n"
     "    if (getenv(\"RAMVRAM_FIT_BYTES\")) {\n"
     "        for (size_t id = 0; id < devs.size(); id++) {\n"
     "            printf(\"%s %zu %zu %zu\\n\", ggml_backend_dev_name(devs[id]), dmd[id].mb.model, dmd[id].mb.context, dmd[id].mb.compute);\n"
     "        }\n"
     "        printf(\"Host %zu %zu %zu\\n\", dmd.back().mb.model, dmd.back().mb.context, dmd.back().mb.compute);\n"
     "        return;\n"
     "    }\n"
     "    for (size_t id = 0; id < devs.size(); id++) {\n        printf(\"%s \",  ggml_backend_dev_name(devs[id]));"),
]
for rel, old, new in PATCHES:
    path = f"{root}/{rel}"
    s = open(path).read()
    if "ramvram reference patch" in s:
        continue
    if s.count(old) != 1:
        sys.exit(f"{rel}: patch context not found (another llama.cpp version?)")
    s = s.replace(old, new)
    if "#include <cstdlib>" not in s:
        s = "#include <cstdlib>\n" + s
    open(path, "w").write(s)
    print("patched", rel)
