/**
 * Input made before the page has hydrated. The server's HTML shows every control at once, but
 * until React has attached its handlers (seconds on a slow machine) a click on a button did
 * nothing, and text typed into a field never reached the page's state (Send stayed disabled
 * beside it): lost without a word. The inline script below, run before the first paint, holds
 * that input in order: a click on a control (the page then says it follows: `data-early-click`
 * on the root, not the control, whose attributes React compares as it hydrates), the
 * latest text of each field, Enter in a field that sends with it (`data-enter-submits`) and a
 * single-key shortcut. Once the page has hydrated, `replayEarlyInput` hands each to it as if it
 * came then. A link's click is left to the browser: it navigates without the page's scripts.
 */

/** What the script holds, oldest first. */
export type EarlyInput =
  | { kind: "click"; target: HTMLElement }
  | {
      kind: "value";
      target: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
      value: string;
    }
  | {
      kind: "key";
      target: HTMLElement;
      key: string;
      code: string;
      shiftKey: boolean;
    };

declare global {
  interface Window {
    /** Set by `EARLY_INPUT_SCRIPT`: stops holding input and returns what it held. */
    __wirescopeEarlyInput?: () => EarlyInput[];
  }
}

/** Controls whose click does something only through the page's scripts. */
const CONTROL =
  'button,[role="button"],[role="tab"],[role="menuitem"],[role="option"],[role="switch"],[role="checkbox"],[role="radio"],summary,label,input[type="checkbox"],input[type="radio"]';
const FIELD = 'input,textarea,select,[contenteditable=""],[contenteditable="true"]';

/*
 * Plain ES2015 for every browser the page supports, as the theme's boot script. Listens on the
 * window in the capture phase, before React's listeners on the document: a held click is
 * stopped there, so that it is not also seen by React once React listens, and then replayed.
 * A label's click is held too: its default would tick the input the page does not yet know of.
 * A page script that fails to load (the network, a build replaced under the page) means the page
 * will never hydrate: holding then stops, what was held is dropped, and the page no longer says
 * a click follows (it would say so for good, over controls that ignored every click).
 */
export const EARLY_INPUT_SCRIPT = `(function(){
var held=[],w=window,root=document.documentElement,CONTROL=${JSON.stringify(CONTROL)},FIELD=${JSON.stringify(FIELD)};
function element(t){return t instanceof Element?t:null}
function onClick(e){var t=element(e.target),c=t&&t.closest(CONTROL);if(!c)return;e.preventDefault();e.stopPropagation();held.push({kind:"click",target:c});root.setAttribute("data-early-click","")}
function onInput(e){var t=e.target;if(!(t instanceof HTMLInputElement||t instanceof HTMLTextAreaElement||t instanceof HTMLSelectElement))return;if(t.type==="checkbox"||t.type==="radio")return;var last=held[held.length-1];if(last&&last.kind==="value"&&last.target===t)last.value=t.value;else held.push({kind:"value",target:t,value:t.value});if(t.form){var b=t.form.querySelectorAll("[data-needs-text]");for(var i=0;i<b.length;i++)b[i].disabled=t.value.trim()===""}}
function onKey(e){if(e.isComposing)return;var t=element(e.target);if(!t)return;var f=t.closest(FIELD);if(f){if(e.key==="Enter"&&!e.shiftKey&&f.hasAttribute("data-enter-submits")){e.preventDefault();held.push({kind:"key",target:f,key:e.key,code:e.code,shiftKey:false})}return}if(e.key.length!==1||e.ctrlKey||e.metaKey||e.altKey||t.closest(CONTROL))return;held.push({kind:"key",target:t,key:e.key,code:e.code,shiftKey:e.shiftKey})}
function onError(e){if(e.target instanceof HTMLScriptElement&&w.__wirescopeEarlyInput)w.__wirescopeEarlyInput()}
w.addEventListener("click",onClick,true);w.addEventListener("input",onInput,true);w.addEventListener("change",onInput,true);w.addEventListener("keydown",onKey,true);w.addEventListener("error",onError,true);
root.setAttribute("data-early-input","");
w.__wirescopeEarlyInput=function(){w.removeEventListener("click",onClick,true);w.removeEventListener("input",onInput,true);w.removeEventListener("change",onInput,true);w.removeEventListener("keydown",onKey,true);w.removeEventListener("error",onError,true);root.removeAttribute("data-early-input");root.removeAttribute("data-early-click");delete w.__wirescopeEarlyInput;var out=held;held=[];return out};
})()`;

/**
 * Stops holding input and hands what was held to the hydrated page, in order, a task apart:
 * each thing sees the state the one before left (the text typed, then Enter that sends it).
 * Something whose element the page has since removed is dropped, and so is a field's held text
 * once the user has typed in that field since the hand-over: the page saw the whole text then
 * (what was typed before included), and the held text would take back what came after it.
 */
export async function replayEarlyInput(): Promise<void> {
  const held = window.__wirescopeEarlyInput?.() ?? [];
  if (held.length === 0) return;
  const typedSince = new Set<EventTarget>();
  let replaying = false;
  const note = (event: Event) => {
    if (!replaying && event.target !== null) typedSince.add(event.target);
  };
  window.addEventListener("input", note, true);
  window.addEventListener("change", note, true);
  try {
    for (const input of held) {
      await nextTask();
      if (!input.target.isConnected) continue;
      if (input.kind === "value" && typedSince.has(input.target)) continue;
      replaying = true;
      try {
        replay(input);
      } finally {
        replaying = false;
      }
    }
  } finally {
    window.removeEventListener("input", note, true);
    window.removeEventListener("change", note, true);
  }
}

/** One held thing, handed to the page as if it came now. */
function replay(input: EarlyInput): void {
  if (input.kind === "click") input.target.click();
  else if (input.kind === "value") setValue(input.target, input.value);
  else
    input.target.dispatchEvent(
      new KeyboardEvent("keydown", {
        key: input.key,
        code: input.code,
        shiftKey: input.shiftKey,
        bubbles: true,
        cancelable: true,
      }),
    );
}

/**
 * Gives a field's text to the page's `onChange`. React took the text typed before hydration
 * for the value it last saw, so an input event alone would change nothing: the element's own
 * setter (React's tracker) empties it, the prototype's (past the tracker) puts the text back,
 * and the event then carries a change. A select's `change` is taken as it comes.
 */
function setValue(
  field: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  value: string,
): void {
  if (field instanceof HTMLSelectElement) {
    field.value = value;
    field.dispatchEvent(new Event("change", { bubbles: true }));
    return;
  }
  const prototype =
    field instanceof HTMLTextAreaElement
      ? HTMLTextAreaElement.prototype
      : HTMLInputElement.prototype;
  field.value = "";
  Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(field, value);
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
