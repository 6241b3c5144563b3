/**
 * The explorer's one search box (labelled "Search", in every explorer page's header): a
 * request key, block hash, height, account or module name. `/` anywhere outside a text
 * field focuses it; submitting opens the search page for the text (its own address, so
 * back and forward work).
 * @module
 */
import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Input, Label, SearchField } from "react-aria-components";
import { Button } from "../../../ui/Button.tsx";

/** Whether a key press is typing into something (then `/` is just a character). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

export function ExplorerSearch({ initial = "" }: { readonly initial?: string }) {
  const navigate = useNavigate();
  const [text, setText] = useState(initial);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => setText(initial), [initial]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      e.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const query = text.trim();
    if (query === "") {
      input.current?.focus();
      return;
    }
    void navigate({ to: "/explorer/search/$query", params: { query } });
  };

  return (
    <search className="explorer-search">
      <form onSubmit={submit} className="explorer-search-form">
        <SearchField
          value={text}
          onChange={setText}
          onSubmit={() => submit()}
          className="field explorer-search-field"
          aria-describedby="explorer-search-hint"
        >
          <Label className="field-label">Search</Label>
          <Input
            ref={input}
            className="input"
            placeholder="Request key, block hash, height, account or module"
            spellCheck={false}
            autoComplete="off"
            autoCapitalize="off"
          />
        </SearchField>
        <Button type="submit" tone="primary">
          Search
        </Button>
      </form>
      <p id="explorer-search-hint" className="field-hint">
        Press <kbd>/</kbd> to search from anywhere in the explorer.
      </p>
    </search>
  );
}
