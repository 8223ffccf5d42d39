// The board context as a pin table: every pin with its names, what it can do,
// its bus roles and its interrupt, as the agent is told.
const $ = (id) => document.getElementById(id);

const cell = (text) => {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
};

const item = (text, className) => {
  const li = document.createElement('li');
  li.className = className;
  li.textContent = text;
  return li;
};

export class BoardView {
  show(context, problem) {
    $('board-problem').hidden = Boolean(context);
    $('board-problem').textContent = problem ?? 'Reading the board context…';
    $('pins').hidden = !context || context.pins.length === 0;
    $('board-name').textContent = context ? `${context.board} (${context.id}${context.mcu ? ', ' + context.mcu : ''})` : '';
    $('pins').tBodies[0].replaceChildren(
      ...(context?.pins ?? []).map((pin) => {
        const row = document.createElement('tr');
        row.append(cell(pin.number), cell(pin.names.join(', ')), cell(pin.capabilities.join(', ')), cell(pin.functions.join(', ')), cell(pin.interrupt ?? ''));
        return row;
      }),
    );
    // What the agent is told besides the pins: the IDE's last compile, and the sketch check's findings.
    $('board-notes').replaceChildren(
      ...(context?.notes ?? []).map((note) => item(`${note.topic}: ${note.text}`, 'note')),
      ...(context?.findings ?? []).map((finding) => item(`${finding.severity}: ${finding.message}${finding.where ? ` (${finding.where})` : ''}`, `finding ${finding.severity}`)),
      ...(context?.warnings ?? []).map((warning) => item(`reading the files: ${warning}`, 'warning')),
    );
    $('buses').replaceChildren(
      ...(context?.buses ?? []).map((bus) => {
        const item = document.createElement('li');
        const pins = Object.entries(bus.pins).map(([role, pin]) => `${role} ${pin}`).join(', ');
        item.textContent = `${bus.name} (${bus.kind})${pins ? ': ' + pins : ''}`;
        return item;
      }),
    );
  }
}
