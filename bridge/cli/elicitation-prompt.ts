// How `chat` answers an agent's elicitation: a form is asked field by field (type,
// choices, required, default shown), a URL is shown and opened in the browser only when
// the person says yes (and only an http(s) one), and the person says when they are done.
// `/decline` and `/cancel` answer at any field. What the agent wrote (message, titles,
// descriptions, choices, defaults, the URL) passes the terminal sanitiser, and the
// message is a bounded quotation.
import readline from 'node:readline';
import type { CreateElicitationResponse, ElicitationContentValue } from '@agentclientprotocol/sdk';
import type { AskElicitation, PendingElicitation } from '../services/elicitation/elicitation-broker.js';
import { parseAnswer, type FormField } from '../services/elicitation/form-fields.js';
import { browserCommand, openableUrl, openBrowser } from './open-browser.js';
import { quotedLines, terminalLine, terminalText } from './terminal-text.js';

const MESSAGE = { lines: 12, chars: 240 };
const DESCRIPTION = { lines: 4, chars: 240 };

export function askElicitationWith(rl: readline.Interface, out: NodeJS.WriteStream = process.stdout): AskElicitation {
  return async (pending, signal) => {
    const [first, ...rest] = quotedLines(pending.message, MESSAGE).map((l) => l.slice(2));
    out.write(`\n\x07The agent asks: ${first}\n${rest.map((l) => `  │ ${l}\n`).join('')}`);
    return pending.mode === 'url' ? askUrl(rl, out, pending, signal) : askForm(rl, out, pending.fields ?? [], signal);
  };
}

async function askForm(rl: readline.Interface, out: NodeJS.WriteStream, fields: FormField[], signal: AbortSignal): Promise<CreateElicitationResponse> {
  out.write('(answer each field; Enter takes the default shown in [ ]; /decline or /cancel to refuse the form)\n');
  const content: Record<string, ElicitationContentValue> = {};
  for (const field of fields) {
    if (field.description) for (const l of quotedLines(field.description, DESCRIPTION)) out.write(`  ${l}\n`);
    field.options?.forEach((o, i) => out.write(`    ${i + 1}. ${terminalLine(`${o.title}${o.title !== o.value ? ` (${o.value})` : ''}`)}\n`));
    for (;;) {
      const typed = await question(rl, promptFor(field), signal);
      if (typed === undefined) return { action: 'cancel' };
      if (typed.trim() === '/decline') return { action: 'decline' };
      if (typed.trim() === '/cancel') return { action: 'cancel' };
      const answer = parseAnswer(field, typed);
      if ('error' in answer) {
        out.write(`  ${terminalText(answer.error)}\n`);
        continue;
      }
      if ('value' in answer) content[field.name] = answer.value;
      break;
    }
  }
  return { action: 'accept', content };
}

function promptFor(field: FormField): string {
  const kind =
    field.type === 'choice' ? `1-${field.options?.length}` : field.type === 'choices' ? `numbers 1-${field.options?.length}, comma separated` : field.type === 'boolean' ? 'y/n' : field.type;
  const shownDefault = field.default === undefined ? '' : ` [${Array.isArray(field.default) ? field.default.join(',') : String(field.default)}]`;
  return `  ${terminalLine(field.title)}${field.required ? ' *' : ''} (${kind})${terminalLine(shownDefault)}: `;
}

// The page opens only after the person says yes, and only an http(s) one (browserCommand
// checks that where it builds the opener's command); the default is not to open it.
async function askUrl(rl: readline.Interface, out: NodeJS.WriteStream, pending: PendingElicitation, signal: AbortSignal): Promise<CreateElicitationResponse> {
  const given = pending.url ?? '';
  const openable = openableUrl(given);
  out.write(`  The page: ${terminalLine('url' in openable ? openable.url : given)}\n`);
  const opener = browserCommand(given);
  if (opener.command) {
    const typed = await question(rl, '  Open it in your browser? [y/N] ', signal);
    if (typed === undefined) return { action: 'cancel' };
    if (/^\s*y/i.test(typed)) {
      const problem = await openBrowser(opener.command);
      out.write(problem ? `  (${problem}; open it yourself)\n` : '  (opened in your browser)\n');
    } else if (typed.trim() === '/decline' || typed.trim() === '/cancel') {
      return { action: typed.trim() === '/decline' ? 'decline' : 'cancel' };
    } else {
      out.write('  (not opened)\n');
    }
  } else {
    out.write(`  (not opened: ${opener.skipped})\n`);
  }
  const typed = await question(rl, '  Press Enter when you are done there, or type /decline: ', signal);
  if (typed === undefined) return { action: 'cancel' };
  return typed.trim() === '/decline' ? { action: 'decline' } : typed.trim() === '/cancel' ? { action: 'cancel' } : { action: 'accept' };
}

// undefined when the signal aborts (the turn was cancelled): the question is withdrawn.
function question(rl: readline.Interface, text: string, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(undefined);
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    rl.question(text, { signal }, (answer) => {
      signal.removeEventListener('abort', onAbort);
      resolve(answer);
    });
  });
}
