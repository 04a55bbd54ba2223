// Runs tests/firmware/scenarios.py against the firmware under MicroPython (WebAssembly port).
// Usage: node run_micropython.mjs <firmware dir> <scenarios.py>
// Prints one line "RESULT <name> ok" or "RESULT <name> <error>" per scenario, then "DONE <version>".
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const [fwDir, scenarios] = process.argv.slice(2);
const out = [];
const mp = await loadMicroPython({ stdout: (line) => out.push(line), stderr: (line) => out.push("STDERR " + line) });
mp.FS.mkdir("/fw");
for (const name of readdirSync(fwDir)) {
  if (name.endsWith(".py") || name.endsWith(".txt")) {
    mp.FS.writeFile(join("/fw", name), readFileSync(join(fwDir, name)));
  }
}
mp.FS.writeFile("/fw/scenarios.py", readFileSync(scenarios));
try {
  mp.runPython(`
import sys
sys.path.append("/fw")
import protocol, uid, debounce, scanner, sim, pn532, mfrc522, scenarios

class FW:
    pass

fw = FW()
for m in (protocol, uid, debounce, scanner, sim, pn532, mfrc522):
    setattr(fw, m.__name__, m)
with open("/fw/golden_frames.txt") as f:
    fw.golden = f.read()
for name, err in scenarios.run_all(fw):
    print("RESULT", name, "ok" if err is None else err)
print("DONE", sys.implementation.name, ".".join(str(v) for v in sys.implementation.version[:3]))
`);
} catch (e) {
  out.push("PYERROR " + String(e));
}
process.stdout.write(out.join("\n") + "\n");
