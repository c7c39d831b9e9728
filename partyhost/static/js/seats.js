/* Seats across devices (issue 16): the host's take-over prompt ("ゆうきさんが別の端末から戻ろうと
 * しています", allow / refuse) on the TV and a host phone, and the word to an old page whose seat
 * moved to another device. Loaded after app.js on every page; the server decides everything. */
"use strict";

(() => {
  const { t, esc } = PH;
  let box = null;

  /* The requests waiting for the host (s.claims, sent to TV and host screens only), oldest
     first; one prompt at a time. The host's screens get the buttons. */
  function drawClaims(s) {
    const claims = s.claims || [];
    if (!box) {
      box = document.createElement("div");
      box.id = "claims";
      box.className = "claims";
      box.setAttribute("role", "alertdialog");
      box.setAttribute("aria-labelledby", "claim-title"); /* named by its question (axe: aria-dialog-name) */
      box.setAttribute("aria-live", "assertive");
      document.body.appendChild(box);
    }
    box.hidden = !claims.length;
    const c = claims[0];
    PH.patch(box, c ? `<div class="claim-card" data-testid="claim-prompt" data-claim="${esc(c.id)}">
        <p class="claim-title" id="claim-title">${esc(t("claim.prompt", { name: c.name }))}</p>
        ${s.host ? `<p class="small">${esc(t("claim.hint"))}</p>
        <div class="row"><button class="primary" data-claim-allow="1" data-testid="claim-allow">${esc(t("claim.allow"))}</button>
          <button data-claim-allow="0" data-testid="claim-refuse">${esc(t("claim.refuse"))}</button></div>` : ""}
        ${claims.length > 1 ? `<p class="small">+${claims.length - 1}</p>` : ""}
      </div>` : "", (el) => {
      PH.guard(el.querySelectorAll("[data-claim-allow]"),
        (b) => PH.host("claim", { claim: c.id, allow: b.dataset.claimAllow === "1" }), { key: "claim:" + (c && c.id) });
    });
  }

  PH.on("state", drawClaims);
  /* An old page whose seat was taken over elsewhere: its token is void, it says so. */
  PH.on("welcome", (w) => {
    if (w.reason === "moved") PH.store.set("token", null);
    if (w.moved_here) PH.toast(t("claim.moved_here"));
  });

  /* The join form's note about a take-over: offered (the name is an away seat's), pending,
     refused, gone, or this page's seat moved away. Returns HTML; ``wire`` hooks its button. */
  PH.claimNote = (s, welcome, offer) => {
    const claim = s && s.claim;
    if (claim && claim.status === "pending") return `<p class="note claim" data-testid="claim-pending">${esc(t("claim.pending", { name: claim.name }))}</p>`;
    if (welcome && welcome.reason === "moved" && !offer) return `<p class="note claim" data-testid="claim-moved">${esc(t("claim.moved", { name: welcome.name || "" }))}</p>`;
    let note = "";
    if (claim && claim.status === "refused") note = `<p class="note claim" data-testid="claim-refused">${esc(t("claim.refused"))}</p>`;
    else if (claim && claim.status === "gone") note = `<p class="note claim" data-testid="claim-gone">${esc(t("claim.gone"))}</p>`;
    if (offer) note += `<button class="primary" data-claim-ask="${esc(offer)}" data-testid="claim-ask">${esc(t("claim.ask", { name: offer }))}</button>`;
    return note;
  };
  PH.wireClaimNote = (root) => {
    PH.guard(root.querySelectorAll("[data-claim-ask]"),
      (b) => PH.send("join", { name: b.dataset.claimAsk, lang: PH.lang, claim: true }), { key: "claim-ask" });
  };
})();
