// The rematch panel of a finished match: offer a rematch, answer one, follow it live. The
// match page's socket (match.js) hands over the server's "rematch" messages as a "rematch"
// event; when the rematch starts, every player asked goes to it.

import { format, gettext } from "./i18n.js";

const panel = document.getElementById("rematch");
const body = document.getElementById("rematch-body");
const data = JSON.parse(document.getElementById("rematch-data").textContent);
const csrf = document.querySelector("#rematch-csrf input[name=csrfmiddlewaretoken]");
let offer = data.offer;

function el(tag, content, cls) {
  const node = document.createElement(tag);
  if (content !== undefined && content !== null) node.textContent = content;
  if (cls) node.className = cls;
  return node;
}

// A form that posts to ``url`` (the answer is a page load: the server redirects).
function button(url, label, cls) {
  const form = el("form", null, "inline-form");
  form.method = "post";
  form.action = url;
  if (csrf) form.append(csrf.cloneNode());
  const next = el("input");
  next.type = "hidden";
  next.name = "next";
  next.value = location.pathname;
  const submit = el("button", label, `button ${cls || ""}`.trim());
  submit.type = "submit";
  form.append(next, submit);
  return form;
}

function urlFor(name, id) {
  return data.urls[name].replace("{id}", id);
}

const ANSWER_WORDS = {
  accepted: gettext("accepted"),
  declined: gettext("declined"),
  pending: gettext("not answered yet"),
};
const CLOSED_WORDS = {
  declined: gettext("The rematch was declined."),
  cancelled: gettext("The rematch offer was withdrawn."),
  expired: gettext("The rematch offer expired."),
};

function mine() {
  return offer ? offer.answers.find((a) => a.user_id === data.me) : null;
}

function render() {
  body.replaceChildren();
  const me = mine();
  if (offer && offer.state === "accepted" && offer.new_match_url) {
    const p = el("p", gettext("The rematch has started: "));
    const a = el("a", format(gettext("match #%(number)s"), { number: offer.new_match }));
    a.href = offer.new_match_url;
    a.id = "rematch-link";
    p.append(a, ".");
    body.append(p);
  } else if (offer && offer.state === "pending") {
    body.append(el(
        "p",
        format(
          offer.rated
            ? gettext("%(name)s offers a rematch (rated), the seats moved round by one.")
            : gettext("%(name)s offers a rematch (casual), the seats moved round by one."),
          { name: offer.offered_by },
        ),
      ),);
    const list = el("ul", null, "rematch-answers");
    for (const answer of offer.answers) {
      const li = el("li", `${answer.username}: ${ANSWER_WORDS[answer.answer] || answer.answer}`);
      li.dataset.answer = answer.answer;
      list.append(li);
    }
    body.append(list);
    if (me && me.answer === "pending") {
      const buttons = el("div", null, "match-buttons");
      buttons.append(button(urlFor("accept", offer.id), gettext("Accept the rematch"), "primary"),
        button(urlFor("decline", offer.id), gettext("Decline")),);
      body.append(buttons);
    } else if (data.me !== null && data.me === offer.offered_by_id) {
      body.append(button(urlFor("cancel", offer.id), gettext("Withdraw the offer")));
    }
  } else {
    if (offer && CLOSED_WORDS[offer.state]) body.append(el("p", CLOSED_WORDS[offer.state], "muted"));
    if (data.seated) {
      body.append(el("p", gettext("Play the same match again: same game, options, clock and players, and another player starts."), "muted"));
      body.append(button(data.urls.offer, gettext("Rematch"), "primary"));
    }
  }
  panel.hidden = !body.children.length;
}

document.addEventListener("rematch", (event) => {
  const update = event.detail;
  if (offer && update.id < offer.id) return; // an older offer's news
  offer = update;
  render();
  // Everyone asked goes to the rematch once it starts; spectators get the link.
  if (offer.state === "accepted" && offer.new_match_url && mine()) window.location.assign(offer.new_match_url);
});

render();
