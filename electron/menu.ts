/**
 * The application menu: the platform's usual Edit, View and Window menus built from
 * Electron roles (so shortcuts, copy/paste and window handling behave natively), plus the
 * app menu on macOS and File → Quit elsewhere. Developer tools appear only in development.
 * @module
 */
import type { MenuItemConstructorOptions } from "electron";

export type MenuOptions = {
  readonly platform: NodeJS.Platform;
  readonly appName: string;
  /** Adds Reload and Toggle Developer Tools to View (development builds only). */
  readonly developer: boolean;
};

/** The menu template; pass it to `Menu.buildFromTemplate`. */
export function applicationMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === "darwin";
  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: options.appName,
          submenu: [
            { role: "about" },
            { type: "separator" },
            { role: "services" },
            { type: "separator" },
            { role: "hide" },
            { role: "hideOthers" },
            { role: "unhide" },
            { type: "separator" },
            { role: "quit" },
          ],
        },
      ]
    : [{ label: "&File", submenu: [{ role: "quit" }] }];
  const edit: MenuItemConstructorOptions = {
    label: mac ? "Edit" : "&Edit",
    submenu: [
      { role: "undo" },
      { role: "redo" },
      { type: "separator" },
      { role: "cut" },
      { role: "copy" },
      { role: "paste" },
      ...(mac ? [{ role: "pasteAndMatchStyle" } as const] : []),
      { role: "delete" },
      { type: "separator" },
      { role: "selectAll" },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: mac ? "View" : "&View",
    submenu: [
      ...(options.developer
        ? [
            { role: "reload" } as const,
            { role: "toggleDevTools" } as const,
            { type: "separator" } as const,
          ]
        : []),
      { role: "resetZoom" },
      { role: "zoomIn" },
      { role: "zoomOut" },
      { type: "separator" },
      { role: "togglefullscreen" },
    ],
  };
  const window: MenuItemConstructorOptions = {
    label: mac ? "Window" : "&Window",
    role: "windowMenu",
    submenu: mac
      ? [{ role: "minimize" }, { role: "zoom" }, { type: "separator" }, { role: "front" }]
      : [{ role: "minimize" }, { role: "close" }],
  };
  return [...appMenu, edit, view, window];
}
