// board_info and pin_info: the hardware context, looked up by the agent on demand.
import { z } from 'zod';
import type { HardwareContext, Pin } from '../../context-providers/types.js';
import type { ContextService } from '../context/context-service.js';
import { defineTool, type HardwareTool } from './hardware-tool.js';

/** `sketch`: the person's --sketch, for a workspace that is not itself the project (see sketch-discovery.ts). */
export function contextTools(contexts: ContextService, workspace: string, board: () => string | undefined, sketch?: string): HardwareTool[] {
  const load = async () => {
    const { loaded, note } = await contexts.loadWorkspace(workspace, { board: board() }, sketch);
    if (!loaded) throw new Error(note ?? `${workspace} is not a sketch, MPLAB X project or OpenMV script folder that boardbridge recognises`);
    return loaded;
  };
  return [
    defineTool({
      name: 'board_info',
      title: 'Board information',
      description: 'The selected board: name, id (FQBN/device), MCU, clock, flash and RAM limits, upload method, buses, libraries and findings, each with its source file.',
      input: {},
      readOnly: true,
      run: async () => ({ text: (await load()).markdown }),
    }),
    defineTool({
      name: 'pin_info',
      title: 'Pin information',
      description: 'What a pin can do on the selected board (digital, analog input, PWM, interrupt, I2C/SPI/UART roles), by number or name (13, D3, A0, LED_BUILTIN, SDA, RC6).',
      input: { pin: z.union([z.string().min(1), z.number().int()]).describe('pin number or name') },
      readOnly: true,
      run: async ({ pin }) => {
        const { context } = await load();
        const found = findPin(context, pin);
        if (!found) {
          const names = context.pins.slice(0, 40).map((p) => p.names[0] ?? String(p.number));
          return { text: `${context.board.name} has no pin "${pin}". Pins: ${names.join(', ')}${context.pins.length > 40 ? ', …' : ''}`, isError: true };
        }
        return { text: describePin(context, found) };
      },
    }),
  ];
}

export function findPin(context: HardwareContext, pin: string | number): Pin | undefined {
  const wanted = String(pin).trim().toUpperCase();
  return (
    context.pins.find((p) => String(p.number).toUpperCase() === wanted) ??
    context.pins.find((p) => p.names.some((n) => n.toUpperCase() === wanted)) ??
    context.pins.find((p) => p.names.some((n) => n.toUpperCase() === `D${wanted}`))
  );
}

function describePin(context: HardwareContext, pin: Pin): string {
  const where = pin.source ? ` (${pin.source.file}${pin.source.line ? `:${pin.source.line}` : ''})` : '';
  const lines = [
    `${context.board.name} pin ${pin.number}: ${pin.names.join(', ')}`,
    `capabilities: ${pin.capabilities.join(', ') || 'none known'}`,
  ];
  if (pin.functions?.length) lines.push(`functions: ${pin.functions.join(', ')}`);
  if (pin.interrupt !== undefined) lines.push(`interrupt: ${pin.interrupt}`);
  if (!pin.capabilities.includes('pwm') && context.kind === 'arduino') {
    const pwm = context.pins.filter((p) => p.capabilities.includes('pwm')).map((p) => p.number);
    if (pwm.length) lines.push(`no PWM here; PWM pins: ${pwm.join(', ')}`);
  }
  return lines.join('\n') + where;
}
