// The page's language for the scripts. base.html loads Django's JavaScript catalogue before the
// modules, which gives the page gettext, ngettext and interpolate; without it (the boards'
// tests in Node) the English is kept.
const page = globalThis;

export function gettext(text) {
  return page.gettext ? page.gettext(text) : text;
}

export function ngettext(one, many, count) {
  if (page.ngettext) return page.ngettext(one, many, count);
  return count === 1 ? one : many;
}

// "%(name)s" in a translated text, each filled from values (as in the Python messages).
export function format(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
}

// What a game engine says (games/engine_text.py) comes as {t: template, p: {values}} (a value
// may be one too), said with the game's templates in the page's language, embedded in the
// match page as #engine-text; a template without a translation there is said in English.
let engineCatalogue = null;

function engineTemplate(msgid) {
  if (engineCatalogue === null) {
    const el = globalThis.document && document.getElementById("engine-text");
    try {
      engineCatalogue = el ? JSON.parse(el.textContent) : {};
    } catch {
      engineCatalogue = {};
    }
  }
  return engineCatalogue[msgid] ?? msgid;
}

function isEngineText(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value) || typeof value.t !== "string") return false;
  return Object.keys(value).every((key) => key === "t" || key === "p");
}

// ``value`` (a snapshot, or any part of one) with every engine text in it said as a string.
export function say(value) {
  if (isEngineText(value)) {
    const values = value.p || {};
    return engineTemplate(value.t).replace(/%\((\w+)\)s/g, (_, name) => String(say(values[name])));
  }
  if (Array.isArray(value)) return value.map(say);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, say(item)]));
  }
  return value;
}
