"""Read the tables of a page the way a person reads them: rows of cell texts."""

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Row:
    attrs: dict
    cells: list[str] = field(default_factory=list)
    html: str = ""


@dataclass
class Table:
    attrs: dict
    caption: str = ""
    rows: list[Row] = field(default_factory=list)

    def texts(self) -> list[list[str]]:
        return [row.cells for row in self.rows]


class _TableParser(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables: list[Table] = []
        self.stack: list[Table] = []
        self.in_body = False
        self.row: Row | None = None
        self.cell: list[str] | None = None
        self.in_caption = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            table = Table(attrs)
            self.tables.append(table)
            self.stack.append(table)
        elif not self.stack:
            return
        elif tag == "caption":
            self.in_caption = True
        elif tag == "tbody":
            self.in_body = True
        elif tag == "tr" and self.in_body:
            self.row = Row(attrs)
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []
        if self.row is not None:
            self.row.html += self.get_starttag_text() or ""

    def handle_endtag(self, tag):
        if not self.stack:
            return
        if tag == "table":
            self.stack.pop()
        elif tag == "caption":
            self.in_caption = False
        elif tag == "tbody":
            self.in_body = False
        elif tag == "tr" and self.row is not None:
            self.stack[-1].rows.append(self.row)
            self.row = None
        elif tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.cells.append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data):
        if self.in_caption and self.stack:
            self.stack[-1].caption += data
        if self.cell is not None:
            self.cell.append(data)
        if self.row is not None:
            self.row.html += data


def tables(html: str) -> list[Table]:
    parser = _TableParser()
    parser.feed(html)
    return parser.tables
