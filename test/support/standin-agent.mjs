// A stand-in ACP agent for what no real agent does offline here: stop reasons
// other than end_turn and cancelled, crashing mid-turn, noise on stdout, asking
// for authentication (by key or by a terminal login), logout. Built on the SDK's
// agent(); what it does depends on the prompt text ("stop:refusal", "crash", "noise", "echo-blocks", "unknown-method",
// "read-twice <file> <marker>": reads the file, waits for the marker file, reads it again).
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import readline from 'node:readline';
import { Readable, Writable } from 'node:stream';
import { agent, methods, ndJsonStream, RequestError } from '@agentclientprotocol/sdk';

const requireAuth = process.env.STANDIN_REQUIRE_AUTH === '1';
// STANDIN_TERMINAL_AUTH=<token file>: sessions need that file, which `standin-agent.mjs login` writes
// after asking for a code in the terminal (ACP terminal auth); logout removes it.
const tokenFile = process.env.STANDIN_TERMINAL_AUTH;
let authenticated = false;
let clientCapabilities = {};
// STANDIN_CONFIG=1: a boolean and a select session option.
const configOptions = [
  { id: 'verbose', name: 'Verbose', type: 'boolean', currentValue: false },
  { id: 'speed', name: 'Speed', type: 'select', currentValue: 'fast', options: [{ value: 'fast', name: 'Fast' }, { value: 'slow', name: 'Slow' }] },
];
let sessionDirs;
// STANDIN_CLOSE_MARKER=<file>: offers session/close but never answers it; writes why the wait ended.
const closeMarker = process.env.STANDIN_CLOSE_MARKER;

if (process.argv[2] === 'login') {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  rl.question(`Stand-in login (STANDIN_LOGIN=${process.env.STANDIN_LOGIN}). Code: `, (code) => {
    rl.close();
    if (!code.trim()) {
      process.stdout.write('no code, no login\n');
      process.exit(2);
    }
    writeFileSync(tokenFile, code.trim());
    process.stdout.write('Stand-in login done.\n');
    process.exit(0);
  });
} else {

// STANDIN_CHILD=1: a child of its own in its process group (as agents start language servers
// and shells), which also keeps it running after its stdin closes.
if (process.env.STANDIN_CHILD === '1') spawn('sleep', ['1000'], { stdio: 'ignore' });

function networkCheck() {
  const port = Number(process.env.STANDIN_START_AFTER ?? 0);
  if (!port) return undefined;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('data', () => (socket.destroy(), resolve()));
    socket.once('error', reject);
  });
}

const promptText = (blocks) => blocks.filter((b) => b.type === 'text').map((b) => b.text).join('\n');

const app = agent({ name: 'standin' })
  // STANDIN_SLOW_START=<ms>: initialize answers after that long (an agent that takes its time to start).
  // STANDIN_START_AFTER=<port>: initialize answers once 127.0.0.1:<port> has answered (an agent that checks a login over the network).
  .onRequest(methods.agent.initialize, async ({ params }) => (await new Promise((resolve) => setTimeout(resolve, Number(process.env.STANDIN_SLOW_START ?? 0))), await networkCheck(), (clientCapabilities = params.clientCapabilities ?? {}), {
    protocolVersion: 1,
    agentInfo: { name: 'standin-agent', version: '1.0.0' },
    agentCapabilities: {
      promptCapabilities: { embeddedContext: process.env.STANDIN_EMBEDDED !== '0' },
      auth: tokenFile ? { logout: {} } : undefined,
      sessionCapabilities: { ...(closeMarker ? { close: {} } : {}), ...(process.env.STANDIN_DIRS === '1' ? { additionalDirectories: {} } : {}) },
    },
    authMethods:
      tokenFile && params.clientCapabilities?.auth?.terminal
        ? [{ id: 'standin-terminal', name: 'Stand-in terminal login', type: 'terminal', args: ['login'], env: { STANDIN_LOGIN: '1' } }]
        : [{ id: 'standin-key', name: 'Stand-in key', description: 'uses STANDIN_API_KEY' }],
  }))
  .onRequest(methods.agent.session.close, ({ signal }) => new Promise((resolve) => {
    signal.addEventListener('abort', () => {
      writeFileSync(closeMarker, `aborted: ${signal.reason?.code ?? ''} ${signal.reason?.message ?? signal.reason}`);
      resolve({});
    }, { once: true });
  }))
  .onRequest(methods.agent.logout, () => {
    rmSync(tokenFile, { force: true });
    return {};
  })
  .onRequest(methods.agent.authenticate, ({ params }) => {
    if (params.methodId !== 'standin-key' || !process.env.STANDIN_API_KEY) throw RequestError.authRequired(undefined, 'STANDIN_API_KEY is not set');
    authenticated = true;
    return {};
  })
  .onRequest(methods.agent.session.new, ({ params }) => {
    sessionDirs = params.additionalDirectories;
    if (requireAuth && !authenticated) throw RequestError.authRequired();
    if (tokenFile && !existsSync(tokenFile)) throw RequestError.authRequired(undefined, 'log in first');
    if (process.env.STANDIN_CONFIG === '1') return { sessionId: 'standin-session', configOptions };
    return { sessionId: 'standin-session' };
  })
  .onRequest(methods.agent.session.setConfigOption, ({ params }) => {
    const option = configOptions.find((o) => o.id === params.configId);
    if (!option) throw RequestError.invalidParams(undefined, `no option ${params.configId}`);
    if (option.type === 'boolean' && params.type !== 'boolean') throw RequestError.invalidParams(undefined, 'verbose takes {type: "boolean", value}');
    option.currentValue = params.value;
    return { configOptions };
  })
  .onNotification(methods.agent.session.cancel, () => undefined)
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const text = promptText(params.prompt);
    const say = (t) => client.notify(methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } } });
    if (text.includes('noise')) {
      process.stdout.write('Loading model weights...\n[warn] something chatty\n');
      process.stderr.write('standin: a chatty line on stderr\n');
      await say('still fine after noise');
      return { stopReason: 'end_turn' };
    }
    if (text.includes('crash')) {
      const file = text.match(/crash after writing (\S+)/)?.[1];
      if (file) await client.request(methods.client.fs.writeTextFile, { sessionId: params.sessionId, path: file, content: 'written before the crash\n' });
      await say('about to crash');
      process.stderr.write('standin: fatal: the model went away\n');
      setTimeout(() => process.exit(7), 50);
      return new Promise(() => undefined);
    }
    if (text.includes('echo-blocks')) {
      await say(JSON.stringify(params.prompt.map((b) => (b.type === 'resource' ? { type: b.type, uri: b.resource.uri, text: b.resource.text } : { type: b.type, text: b.text }))));
      return { stopReason: 'end_turn' };
    }
    const twice = text.match(/read-twice (\S+) (\S+)/);
    if (twice) {
      const read = async () => (await client.request(methods.client.fs.readTextFile, { sessionId: params.sessionId, path: twice[1] })).content;
      await say(`first: ${await read()}\n`);
      const { existsSync } = await import('node:fs');
      while (!existsSync(twice[2])) await new Promise((resolve) => setTimeout(resolve, 20));
      await say(`then: ${await read()}\n`);
      return { stopReason: 'end_turn' };
    }
    // "elicit-form" / "elicit-url" / "elicit-wait": asks the client (elicitation/create) and says the answer.
    const elicit = text.match(/elicit-(form|url|wait)/)?.[1];
    if (elicit) {
      if (!clientCapabilities.elicitation?.[elicit === 'url' ? 'url' : 'form']) {
        await say('the client offers no elicitation');
        return { stopReason: 'end_turn' };
      }
      const request =
        elicit === 'url'
          ? { mode: 'url', sessionId: params.sessionId, message: 'Authorize the board service', url: process.env.STANDIN_ELICIT_URL ?? 'https://example.invalid/authorize?code=1', elicitationId: 'el-1' }
          : {
              mode: 'form',
              sessionId: params.sessionId,
              message: 'Which board is connected?',
              requestedSchema: {
                type: 'object',
                properties: {
                  port: { type: 'string', title: 'Serial port', default: '/dev/ttyACM0' },
                  baud: { type: 'integer', title: 'Baud rate', minimum: 300, maximum: 2000000 },
                  board: { type: 'string', title: 'Board', oneOf: [{ const: 'uno', title: 'Arduino Uno' }, { const: 'mega', title: 'Arduino Mega' }] },
                  verbose: { type: 'boolean', title: 'Verbose upload', default: false },
                  note: { type: 'string', title: 'Note' },
                },
                required: ['baud', 'board'],
              },
            };
      const answer = await client.request(methods.client.elicitation.create, request);
      if (elicit === 'url' && answer.action === 'accept') await client.notify(methods.client.elicitation.complete, { elicitationId: 'el-1' });
      await say(`elicitation answer: ${JSON.stringify(answer)}`);
      return { stopReason: answer.action === 'cancel' ? 'cancelled' : 'end_turn' };
    }
    // "withdraw-permission": asks permission, then withdraws the request ($/cancel_request) after a moment.
    if (text.includes('withdraw-permission')) {
      const answer = await client.request(
        methods.client.session.requestPermission,
        { sessionId: params.sessionId, toolCall: { toolCallId: 'w1', title: 'Erase the board', kind: 'execute' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }] },
        { cancellationSignal: AbortSignal.timeout(1500) },
      ).catch((error) => ({ error: error.code }));
      await say(`permission answer: ${JSON.stringify(answer)}`);
      return { stopReason: 'end_turn' };
    }
    // "permission-kinds <kind>,<kind>": asks a permission offering one option of each kind (id = kind) and says the answer.
    const kinds = text.match(/permission-kinds (\S+)/)?.[1];
    if (kinds) {
      const options = kinds.split(',').map((kind) => ({ optionId: kind, name: kind.replace('_', ' '), kind }));
      const answer = await client.request(methods.client.session.requestPermission, { sessionId: params.sessionId, toolCall: { toolCallId: 'k1', title: 'Edit Blink.ino', kind: 'edit' }, options });
      await say(`permission answer: ${JSON.stringify(answer)}`);
      return { stopReason: 'end_turn' };
    }
    // "run-terminal <shell line>": runs it in a client terminal (sh -c), waits for it and says how it ended.
    const shell = text.match(/run-terminal (.+)/)?.[1];
    if (shell) {
      try {
        const { terminalId } = await client.request(methods.client.terminal.create, { sessionId: params.sessionId, command: 'sh', args: ['-c', shell] });
        const exit = await client.request(methods.client.terminal.waitForExit, { sessionId: params.sessionId, terminalId });
        await client.request(methods.client.terminal.release, { sessionId: params.sessionId, terminalId });
        await say(`terminal ended with ${exit.exitCode}`);
      } catch (error) {
        await say(`terminal error ${error.code}`);
      }
      return { stopReason: 'end_turn' };
    }
    // "replay <file.jsonl>": sends the session/update notifications recorded in the file (a real agent's
    // stream, test/fixtures/recorded), in order, as this session's.
    const replay = text.match(/replay (\S+)/)?.[1];
    if (replay) {
      const { readFileSync } = await import('node:fs');
      for (const line of readFileSync(replay, 'utf8').split('\n').filter(Boolean)) {
        const message = JSON.parse(line);
        if (message.method === 'session/update') await client.notify(methods.client.session.update, { sessionId: params.sessionId, update: message.params.update });
      }
      return { stopReason: 'end_turn' };
    }
    if (text.includes('report-usage')) {
      await client.notify(methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: 'usage_update', used: 1234, size: 200000, cost: { amount: 0.0123, currency: 'USD' } } });
      await say(`verbose is ${configOptions[0].currentValue}`);
      return { stopReason: 'end_turn' };
    }
    if (text.includes('show-dirs')) {
      await say(`additionalDirectories: ${JSON.stringify(sessionDirs ?? null)}`);
      return { stopReason: 'end_turn' };
    }
    if (text.includes('unknown-method')) {
      try {
        await client.request('x/not_a_method', {});
        await say('no error?');
      } catch (error) {
        await say(`error code ${error.code}`);
      }
      return { stopReason: 'end_turn' };
    }
    const stop = text.match(/stop:(\w+)/)?.[1] ?? 'end_turn';
    await say(`stopping with ${stop}`);
    return { stopReason: stop };
  });

app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
}
