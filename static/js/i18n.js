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
