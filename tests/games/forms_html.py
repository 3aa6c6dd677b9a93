"""What a browser would submit from a page's form left as it is: its fields' default values."""

from html.parser import HTMLParser


class _FormDefaults(HTMLParser):
    def __init__(self, action):
        super().__init__()
        self.action = action
        self.inside = False
        self.select = None
        self.first_option = None
        self.values = {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.inside = attrs.get("action") == self.action and not self.values
            return
        if not self.inside or "disabled" in attrs:
            return
        if tag == "input" and attrs.get("name"):
            kind = attrs.get("type", "text")
            if kind == "checkbox":
                if "checked" in attrs:
                    self.values[attrs["name"]] = attrs.get("value") or "on"
            elif kind != "submit":
                self.values[attrs["name"]] = attrs.get("value") or ""
        elif tag == "select":
            self.select, self.first_option = attrs["name"], None
        elif tag == "option" and self.select:
            if self.first_option is None:
                self.first_option = attrs["value"]
                self.values.setdefault(self.select, attrs["value"])
            if "selected" in attrs:
                self.values[self.select] = attrs["value"]

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None


def form_defaults(html: str, action: str) -> dict:
    parser = _FormDefaults(action)
    parser.feed(html)
    assert parser.values, f"no form posting to {action}"
    return parser.values
