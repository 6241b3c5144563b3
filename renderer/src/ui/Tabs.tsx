/**
 * Tabs (React Aria: arrow keys move between tabs, Tab moves into the panel).
 * @module
 */
import type { ReactNode } from "react";
import { Tabs as AriaTabs, Tab, TabList, TabPanel } from "react-aria-components";

export type TabItem = { readonly id: string; readonly title: string; readonly content: ReactNode };

export function Tabs({
  label,
  items,
}: {
  readonly label: string;
  readonly items: readonly TabItem[];
}) {
  return (
    <AriaTabs className="tabs">
      <TabList aria-label={label} className="tab-list">
        {items.map((t) => (
          <Tab key={t.id} id={t.id} className="tab">
            {t.title}
          </Tab>
        ))}
      </TabList>
      {items.map((t) => (
        <TabPanel key={t.id} id={t.id} className="tab-panel">
          {t.content}
        </TabPanel>
      ))}
    </AriaTabs>
  );
}
