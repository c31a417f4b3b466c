// The API key a page sends as `Authorization: Bearer <key>`. It is kept in this tab's
// sessionStorage only: it survives a reload and the move between GraphiQL and the explorer, and is
// gone when the tab closes. Never in localStorage, a cookie or a URL (docs/security.md).
const SLOT = "hippograph.key";

export function currentKey() {
  return sessionStorage.getItem(SLOT) || "";
}

export function authHeaders() {
  const key = currentKey();
  return key ? { Authorization: `Bearer ${key}` } : {};
}

// Wires a form holding a password input, a "forget" button and a status element. `changed` runs
// after the key is set or forgotten.
export function keyForm(form, changed) {
  const input = form.querySelector("input[type=password]");
  const status = form.querySelector(".key-status");
  const show = () => {
    status.textContent = currentKey() ? "key in use (this tab only)" : "no key: fine on a keyless loopback server";
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const key = input.value.trim();
    if (key) sessionStorage.setItem(SLOT, key);
    input.value = "";
    show();
    changed();
  });
  form.querySelector(".forget-key").addEventListener("click", () => {
    sessionStorage.removeItem(SLOT);
    show();
    changed();
  });
  show();
}
