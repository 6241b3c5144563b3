/**
 * Go to an account, a transaction or a module by typing its name or key: one tab per kind,
 * each a labelled field whose mistakes are said under it.
 * @module
 */
import { useRouter } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { Button } from "../../../ui/Button.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { Tabs } from "../../../ui/Tabs.tsx";
import { TextField } from "../../../ui/TextField.tsx";
import { type LookupKind, lookupHref, lookupKinds } from "../model.ts";

function LookupForm({ kind }: { readonly kind: LookupKind }) {
  const router = useRouter();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const spec = lookupKinds.find((k) => k.id === kind) ?? lookupKinds[0];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const target = lookupHref(kind, text);
    if (target.ok) router.history.push(target.value.slice(1));
    else setError(target.reason);
  };
  return (
    <form className="lookup" onSubmit={submit} aria-label={`Look up a ${spec.title.toLowerCase()}`}>
      <TextField
        label={spec.label}
        hint={spec.hint}
        value={text}
        onChange={(v) => {
          setText(v);
          setError(null);
        }}
        error={error}
      />
      <Button type="submit" tone="primary">
        Go
      </Button>
    </form>
  );
}

export function Lookup() {
  return (
    <Panel id="lookup" title="Look up">
      <Tabs
        label="What to look up"
        items={lookupKinds.map((k) => ({
          id: k.id,
          title: k.title,
          content: <LookupForm kind={k.id} />,
        }))}
      />
    </Panel>
  );
}
