// A WebAssembly module of the project's own (a .wat file assembled into base64 by
// scripts/assemble-wasm.mjs), made into an instance where the runtime has WebAssembly.

/** What this file uses of the WebAssembly global, which `node --jitless` does not have. */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}

/**
 * The exports of a new instance of the module whose bytes are `base64`, or undefined where
 * WebAssembly is not available or refuses the module (a runtime without an instruction it uses):
 * the caller then does the work in JavaScript.
 */
export function instantiateWasm<T>(base64: string): T | undefined {
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (!wasm) return undefined;
  try {
    return new wasm.Instance(new wasm.Module(Buffer.from(base64, 'base64'))).exports as T;
  } catch {
    return undefined;
  }
}
