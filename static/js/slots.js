// The server's markup filled in on the phone: a partial rendered as a
// skeleton in a <template> (scoring/templatetags/slots.py) is copied and its
// slots filled with text, so the markup is written once (the round form's
// breakdown, offline-preview.js; the line before a round, next-round.js).

// A copy of `template` (a partial rendered with slots) filled with `data`: each
// <template data-slot> becomes the text of its value, each data-if / data-unless
// part is kept or dropped, each data-each part is repeated once per item (an
// item's values first, then those around it), and data-hook-* sets an attribute
// (data-hook-class adds classes). Text only: a value is never read as HTML.
export function filled(template, data) {
  const copy = template.content.cloneNode(true);
  fill(copy, data);
  return copy;
}

function value(data, name) {
  if (!(name in data)) throw new Error("the skeleton has no value for " + name);
  return data[name];
}

function fill(root, data) {
  root.querySelectorAll("*").forEach((node) => {
    Array.from(node.attributes).forEach((attribute) => {
      if (!attribute.name.startsWith("data-hook-")) return;
      const target = attribute.name.slice("data-hook-".length);
      const given = String(value(data, attribute.value));
      node.removeAttribute(attribute.name);
      if (target === "class") {
        given.split(" ").forEach((name) => {
          if (name) node.classList.add(name);
        });
      } else {
        node.setAttribute(target, given);
      }
    });
  });
  // Only the parts at this level: those inside a part are filled with it.
  root.querySelectorAll("template").forEach((part) => {
    const hook = part.dataset;
    let parts = [];
    if ("slot" in hook) {
      parts = [document.createTextNode(String(value(data, hook.slot)))];
    } else if ("if" in hook || "unless" in hook) {
      const given = value(data, "if" in hook ? hook.if : hook.unless);
      const holds = Array.isArray(given) ? given.length > 0 : Boolean(given); // as {% if %}
      if (holds === "if" in hook) parts = [filled(part, data)];
    } else if ("each" in hook) {
      parts = value(data, hook.each).map((item) =>
        filled(part, Object.assign(Object.create(data), item)),
      );
    }
    part.replaceWith(...parts);
  });
}
