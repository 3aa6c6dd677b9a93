// "Quote" on a forum post: put the post's Markdown, as a quotation, into the reply box.
// Without JavaScript the same link reloads the page with ?quote=<id> and the server fills the box.
const data = document.getElementById("quote-data");
const box = document.getElementById("reply-body");

if (data && box) {
  const quotes = JSON.parse(data.textContent);
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-quote]");
    if (!link || !(link.dataset.quote in quotes)) return;
    event.preventDefault();
    const before = box.value.trimEnd();
    box.value = (before ? `${before}\n\n` : "") + quotes[link.dataset.quote];
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
    box.scrollIntoView({ block: "center" });
  });
}
