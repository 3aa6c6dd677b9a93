// The create-match form shows a game's options only while that game is chosen (without
// script every option shows, each named after its game, and the server keeps only the
// chosen game's).
for (const form of document.querySelectorAll("form")) {
  const game = form.querySelector("select[name=game]");
  const options = form.querySelectorAll(".field[data-game]");
  if (!game || !options.length) continue;
  const show = () => options.forEach((field) => (field.hidden = field.dataset.game !== game.value));
  game.addEventListener("change", show);
  show();
}
