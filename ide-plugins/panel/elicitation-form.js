// An agent's request for input (ACP elicitation) as a card: a form with one control
// per field (text, number, yes/no, a choice, several choices; required ones marked,
// defaults filled in), or a link to open. The bridge checks the typed values.

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

/** The URL when it is an http(s) address, else undefined. */
function webAddress(url) {
  try {
    const parsed = new URL(url ?? '');
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

export function formCard(event, send) {
  const card = el('div', 'card elicitation');
  card.dataset.elicitationId = String(event.id);
  card.append(el('div', 'title', `The agent asks: ${event.message}`));
  const form = el('form', 'fields');
  const read = [];
  if (event.mode === 'url') {
    // Only a web address becomes a link: an agent's javascript:, file: or data: URL is shown as text.
    const href = webAddress(event.url);
    const link = el(href ? 'a' : 'span', 'url', event.url ?? '');
    if (href) {
      link.href = href;
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
    }
    form.append(link);
    if (!href) form.append(el('small', 'description', 'Not a web address (http or https): it is not opened.'));
  }
  for (const field of event.fields ?? []) {
    const row = el('label', 'field');
    row.dataset.field = field.name;
    row.append(el('span', 'name', `${field.title}${field.required ? ' *' : ''}`));
    const control = controlFor(field);
    row.append(control.node);
    if (field.description) row.append(el('small', 'description', field.description));
    read.push([field.name, control.value]);
    form.append(row);
  }
  const buttons = el('div', 'options');
  const submit = el('button', 'allow', event.mode === 'url' ? 'Done' : 'Send');
  submit.type = 'submit';
  const decline = el('button', 'reject', 'Decline');
  decline.type = 'button';
  buttons.append(submit, decline);
  form.append(buttons);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    send({ type: 'elicitation', id: event.id, action: 'accept', content: Object.fromEntries(read.map(([name, value]) => [name, value()])) });
  });
  decline.addEventListener('click', () => send({ type: 'elicitation', id: event.id, action: 'decline' }));
  card.append(form);
  return card;
}

export function formDecided(card, event) {
  const word = { accept: 'sent', decline: 'declined', cancel: 'withdrawn' }[event.action] ?? event.action;
  card.querySelector('form').replaceChildren(el('span', `status ${word}`, `${word} (by ${event.by})`));
  card.dataset.decided = word;
}

// Each control gives its value as text, as a person would type it in the terminal chat.
function controlFor(field) {
  if (field.type === 'boolean') {
    const box = el('input');
    box.type = 'checkbox';
    box.checked = field.default === true;
    return { node: box, value: () => (box.checked ? 'yes' : 'no') };
  }
  if (field.type === 'choice') {
    const select = el('select');
    if (!field.required || field.default === undefined) select.append(el('option', '', ''));
    for (const option of field.options ?? []) {
      const node = el('option', '', option.title);
      node.value = option.value;
      if (option.value === field.default) node.selected = true;
      select.append(node);
    }
    return { node: select, value: () => select.value };
  }
  if (field.type === 'choices') {
    const group = el('span', 'choices');
    const boxes = (field.options ?? []).map((option) => {
      const box = el('input');
      box.type = 'checkbox';
      box.value = option.value;
      box.checked = (field.default ?? []).includes(option.value);
      const label = el('label', '', option.title);
      label.prepend(box);
      group.append(label);
      return box;
    });
    return { node: group, value: () => boxes.filter((b) => b.checked).map((b) => b.value).join(',') };
  }
  const input = el('input');
  input.type = field.type === 'number' || field.type === 'integer' ? 'number' : 'text';
  if (field.type === 'number') input.step = 'any';
  if (field.default !== undefined) input.value = String(field.default);
  return { node: input, value: () => input.value };
}
