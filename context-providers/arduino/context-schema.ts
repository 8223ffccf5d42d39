// The HardwareContext JSON an Arduino sketch produces, as a zod schema (docs/context-schema.md).
// Consumers of `boardbridge context --json` can validate with it; the goldens are checked against it.
import { z } from 'zod';

const source = z.object({ file: z.string(), line: z.number().int().positive().optional() }).strict();

const finding = z
  .object({
    severity: z.enum(['error', 'warning', 'info']),
    message: z.string(),
    file: z.string().optional(),
    line: z.number().int().positive().optional(),
    column: z.number().int().positive().optional(),
    suggestion: z.string().optional(),
    code: z.string(),
  })
  .strict();

const capability = z.enum(['digital', 'analog-in', 'analog-out', 'pwm', 'interrupt', 'i2c', 'spi', 'uart', 'can', 'usb', 'led']);

export const arduinoContextSchema = z
  .object({
    kind: z.literal('arduino'),
    board: z
      .object({
        name: z.string(),
        id: z.string().regex(/^[^:]+:[^:]+:[^:]+(:.+)?$/, 'an FQBN'),
        mcu: z.string().optional(),
        architecture: z.string().optional(),
        clockHz: z.number().positive().optional(),
        flashBytes: z.number().int().positive().optional(),
        ramBytes: z.number().int().positive().optional(),
        sources: z.record(z.string(), source).optional(),
      })
      .strict(),
    pins: z.array(
      z
        .object({
          number: z.number().int().nonnegative(),
          names: z.array(z.string()).min(1),
          capabilities: z.array(capability),
          functions: z.array(z.string()).optional(),
          interrupt: z.number().int().nonnegative().optional(),
          details: z.partialRecord(capability, z.object({ text: z.string(), source: source.optional() }).strict()).optional(),
          traps: z.array(z.object({ code: z.string(), text: z.string(), source: source.optional() }).strict()).optional(),
          source: source.optional(),
        })
        .strict(),
    ),
    buses: z.array(
      z
        .object({ kind: z.string(), name: z.string(), pins: z.record(z.string(), z.union([z.number(), z.string()])), source: source.optional() })
        .strict(),
    ),
    toolchain: z
      .object({
        name: z.string(),
        version: z.string().optional(),
        path: z.string().optional(),
        options: z.array(z.object({ name: z.string(), value: z.string(), source: source.optional() }).strict()).optional(),
        upload: z
          .object({ tool: z.string().optional(), protocol: z.string().optional(), speed: z.number().optional(), method: z.string().optional() })
          .strict()
          .optional(),
        source: source.optional(),
      })
      .strict()
      .optional(),
    libraries: z.array(
      z
        .object({
          include: z.string(),
          name: z.string().optional(),
          version: z.string().optional(),
          path: z.string().optional(),
          location: z.enum(['sketch', 'core', 'variant', 'toolchain', 'user', 'platform', 'referenced-platform', 'builtin']).optional(),
          source: source.optional(),
        })
        .strict(),
    ),
    limits: z.array(z.object({ name: z.string(), value: z.union([z.number(), z.string()]), unit: z.string().optional(), source: source.optional() }).strict()),
    findings: z.array(finding),
    warnings: z.array(finding),
    readOnlyRoots: z.array(z.string()),
    inputs: z.array(z.string()),
    notes: z.array(z.object({ topic: z.string(), text: z.string(), source: source.optional() }).strict()).optional(),
    knowledge: z.record(z.string(), z.object({ known: z.boolean(), reason: z.string().optional(), source: source.optional(), api: z.string().optional() }).strict()).optional(),
    timerGroups: z.array(z.object({ timer: z.string(), pins: z.array(z.union([z.number(), z.string()])), source: source.optional() }).strict()).optional(),
    wiring: z.array(z.object({ pin: z.string(), number: z.number().int().nonnegative(), to: z.array(z.string()), source: source.optional() }).strict()).optional(),
  })
  .strict();

export type ArduinoContextJson = z.infer<typeof arduinoContextSchema>;
