// Maps a MicroPython traceback from the raw REPL (`File "<stdin>", line N`) onto the script file
// the user ran, with the source line each frame points at.

export interface ScriptFile {
  /** Shown in place of `<stdin>`, e.g. `main.py`. */
  name: string;
  text: string;
  /** The script line sent as the first line (1 unless the runner put something in front). */
  firstLine?: number;
}

export interface TracebackFrame {
  /** `main.py` for frames in the script, else the module file MicroPython named. */
  file: string;
  line: number;
  function?: string;
  /** The script's source at `line`, for frames in the script. */
  source?: string;
}

export interface MappedTraceback {
  frames: TracebackFrame[];
  /** The exception line, e.g. `ZeroDivisionError: divide by zero`. */
  error: string;
  /** The traceback with `<stdin>` frames rewritten to the script's name and lines. */
  text: string;
}

const FRAME = /^(\s*)File "([^"]*)", line (\d+)(?:, in (\S+))?\s*$/;

/** The traceback in `stderr`, or undefined when there is none (a clean run). */
export function mapTraceback(stderr: string, script: ScriptFile): MappedTraceback | undefined {
  const lines = stderr.replace(/\r\n/g, '\n').split('\n');
  const start = lines.findIndex((line) => line.startsWith('Traceback (most recent call last)'));
  if (start < 0) return undefined;
  const scriptLines = script.text.split(/\r?\n/);
  const offset = (script.firstLine ?? 1) - 1;
  const frames: TracebackFrame[] = [];
  const text: string[] = [];
  let error = '';
  for (const line of lines.slice(start)) {
    const match = FRAME.exec(line);
    if (!match) {
      text.push(line);
      if (line.trim() && !line.startsWith('Traceback')) error = line.trim();
      continue;
    }
    const [, indent, file, number, name] = match;
    const inScript = file === '<stdin>';
    const mappedLine = inScript ? Number(number) + offset : Number(number);
    const frame: TracebackFrame = { file: inScript ? script.name : file, line: mappedLine, function: name };
    if (inScript) frame.source = scriptLines[mappedLine - 1]?.trim();
    frames.push(frame);
    text.push(`${indent}File "${frame.file}", line ${mappedLine}${name ? `, in ${name}` : ''}`);
  }
  return { frames, error, text: text.join('\n').trimEnd() };
}
