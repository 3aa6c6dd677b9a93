// Forms that start a match (games.forms.GameForm) or a tournament follow the chosen game: the
// players menu offers only the counts that game allows, only its options show, and untimed
// practice is never rated. A change of game starts again from that game's defaults (its usual
// number of players, its options as they come), so nothing chosen for another game is sent
// along unseen. The games' data comes from the page (json_script), never from inline script.
// A form that chooses a level (or plays one) also says, for the chosen game and number of
// players, which levels have not been shown to play better than the level below them there:
// the lines, in the page's language, come with each game's data (``notes``, by player count).

function follow(form) {
  const data = JSON.parse(document.getElementById(form.dataset.gamesData).textContent);
  const game = form.elements.game;
  const players = form.elements.num_players || form.elements.table_size;
  const clock = form.elements.time_control;
  const rated = form.elements.rated;
  const notes = form.querySelector("[data-level-notes]");

  // ``fresh``: the game was changed, so its fields start from their defaults; otherwise (the
  // page as served, perhaps with the choices of a refused post) what they hold is kept.
  function showGame(fresh) {
    const info = data[game.value];
    if (!info) return;
    const keep = fresh ? info.default : Number(players.value);
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
      if (fresh && !field.hidden) {
        field.querySelectorAll("input").forEach((input) => {
          if (input.type === "checkbox") input.checked = input.defaultChecked;
          else input.value = input.defaultValue;
        });
      }
    });
  }

  function showNotes() {
    const info = data[game.value];
    if (!notes || !info || !info.notes) return;
    notes.replaceChildren(
      ...(info.notes[players.value] || []).map((note) => {
        const line = document.createElement("p");
        line.className = "level-note";
        line.dataset.level = note.level;
        line.dataset.verdict = note.verdict;
        line.textContent = note.text;
        return line;
      }),
    );
  }

  function showClock() {
    if (!clock || !rated) return;
    const untimed = clock.value === "untimed";
    if (untimed) rated.checked = false;
    rated.disabled = untimed;
  }

  game.addEventListener("change", () => {
    showGame(true);
    showNotes();
  });
  players.addEventListener("change", showNotes);
  if (clock) clock.addEventListener("change", showClock);
  showGame(false);
  showNotes();
  showClock();
}

document.querySelectorAll("form.game-form[data-games-data]").forEach(follow);
