// How `chat` answers an agent's elicitation: a form is asked field by field (type,
// choices, required, default shown), a URL is opened in the browser (or printed) and
// the person says when they are done. `/decline` and `/cancel` answer at any field.
import readline from 'node:readline';
import type { CreateElicitationResponse, ElicitationContentValue } from '@agentclientprotocol/sdk';
import type { AskElicitation, PendingElicitation } from '../services/elicitation/elicitation-broker.js';
import { parseAnswer, type FormField } from '../services/elicitation/form-fields.js';
import { browserCommand, openBrowser } from './open-browser.js';

export function askElicitationWith(rl: readline.Interface, out: NodeJS.WriteStream = process.stdout): AskElicitation {
  return async (pending, signal) => {
    out.write(`\n\x07The agent asks: ${pending.message}\n`);
    return pending.mode === 'url' ? askUrl(rl, out, pending, signal) : askForm(rl, out, pending.fields ?? [], signal);
  };
}

async function askForm(rl: readline.Interface, out: NodeJS.WriteStream, fields: FormField[], signal: AbortSignal): Promise<CreateElicitationResponse> {
  out.write('(answer each field; Enter takes the default shown in [ ]; /decline or /cancel to refuse the form)\n');
  const content: Record<string, ElicitationContentValue> = {};
  for (const field of fields) {
    if (field.description) out.write(`  ${field.description}\n`);
    field.options?.forEach((o, i) => out.write(`    ${i + 1}. ${o.title}${o.title !== o.value ? ` (${o.value})` : ''}\n`));
    for (;;) {
      const typed = await question(rl, promptFor(field), signal);
      if (typed === undefined) return { action: 'cancel' };
      if (typed.trim() === '/decline') return { action: 'decline' };
      if (typed.trim() === '/cancel') return { action: 'cancel' };
      const answer = parseAnswer(field, typed);
      if ('error' in answer) {
        out.write(`  ${answer.error}\n`);
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
  return `  ${field.title}${field.required ? ' *' : ''} (${kind})${shownDefault}: `;
}

async function askUrl(rl: readline.Interface, out: NodeJS.WriteStream, pending: PendingElicitation, signal: AbortSignal): Promise<CreateElicitationResponse> {
  const url = pending.url ?? '';
  out.write(`  Open: ${url}\n`);
  const opener = browserCommand(url);
  if (opener.command) {
    const problem = await openBrowser(opener.command);
    out.write(problem ? `  (${problem}; open it yourself)\n` : '  (opened in your browser)\n');
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
