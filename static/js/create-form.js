// The create-match form: only the chosen game's options are shown. Without JavaScript every
// option is shown, labelled with its game, and the server applies only the chosen game's.
for (const form of document.querySelectorAll("form[data-create-match]")) {
  const game = form.querySelector("select[name=game]");
  const options = [...form.querySelectorAll("[name^='opt_']")].map((input) => ({
    slug: input.name.slice(4, input.name.indexOf("_", 4)), // opt_<slug>_<option>
    field: input.closest(".field"),
  }));
  const show = () => {
    for (const { slug, field } of options) if (field) field.hidden = slug !== game.value;
  };
  if (game) {
    game.addEventListener("change", show);
    show();
  }
}
