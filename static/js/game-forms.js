// Forms that start a match (games.forms.GameForm) follow the chosen game: the players menu
// offers only the counts that game allows, only its options show, and untimed practice is
// never rated. The games' data comes from the page (json_script), never from inline script.

function follow(form) {
  const data = JSON.parse(document.getElementById(form.dataset.gamesData).textContent);
  const game = form.elements.game;
  const players = form.elements.num_players;
  const clock = form.elements.time_control;
  const rated = form.elements.rated;

  function showGame() {
    const info = data[game.value];
    if (!info) return;
    const keep = Number(players.value);
    players.replaceChildren(
      ...info.counts.map((n) => {
        const option = document.createElement("option");
        option.value = String(n);
        option.textContent = String(n);
        return option;
      }),
    );
    players.value = String(info.counts.includes(keep) ? keep : info.default);
    form.querySelectorAll("[data-game]").forEach((field) => {
      field.hidden = field.dataset.game !== game.value;
    });
  }

  function showClock() {
    if (!clock || !rated) return;
    const untimed = clock.value === "untimed";
    if (untimed) rated.checked = false;
    rated.disabled = untimed;
  }

  game.addEventListener("change", showGame);
  if (clock) clock.addEventListener("change", showClock);
  showGame();
  showClock();
}

document.querySelectorAll("form.game-form[data-games-data]").forEach(follow);
