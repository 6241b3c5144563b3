/**
 * Every explorer page's frame: the search box above, then the page's
 * heading and its one-line explanation.
 * @module
 */
import type { ReactNode } from "react";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import "../explorer.css";
import { ExplorerSearch } from "./ExplorerSearch.tsx";
import { IndexStatus } from "./IndexStatus.tsx";

export type ExplorerFrameProps = {
  readonly title: string;
  readonly lead: ReactNode;
  readonly children: ReactNode;
  /** The text the search box starts with (the search page's query). */
  readonly query?: string;
};

export function ExplorerFrame({ title, lead, children, query }: ExplorerFrameProps) {
  return (
    <div className="explorer">
      <div className="explorer-head">
        <ExplorerSearch initial={query ?? ""} />
      </div>
      <PageTitle>{title}</PageTitle>
      <p className="lead">{lead}</p>
      <IndexStatus />
      {children}
    </div>
  );
}
