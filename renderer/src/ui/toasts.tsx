/**
 * Short messages that come and go ("Copied"), announced to screen readers (React Aria's
 * toast region, a landmark reachable with F6). `showToast` works from anywhere.
 * @module
 */
import {
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastQueue as ToastQueue,
  UNSTABLE_ToastRegion as ToastRegion,
} from "react-aria-components";
import { Button } from "./Button.tsx";

export type ToastMessage = { readonly text: string; readonly tone: "info" | "error" };

const queue = new ToastQueue<ToastMessage>({ maxVisibleToasts: 3 });

const SHOW_MS = 5000;

export function showToast(text: string, tone: ToastMessage["tone"] = "info"): void {
  queue.add({ text, tone }, { timeout: SHOW_MS });
}

export function Toasts() {
  return (
    <ToastRegion queue={queue} className="toasts">
      {({ toast }) => (
        <Toast toast={toast} className={`toast toast-${toast.content.tone}`}>
          <ToastContent className="toast-content">
            <Text slot="title">{toast.content.text}</Text>
          </ToastContent>
          <Button slot="close" tone="quiet" size="sm" aria-label="Dismiss">
            ×
          </Button>
        </Toast>
      )}
    </ToastRegion>
  );
}
