/**
 * A modal dialog opened by a button, whose content gets `close` (forms close it when done).
 * React Aria moves focus in, traps it, and returns it to the button; Escape closes.
 * @module
 */
import type { ReactNode } from "react";
import { Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from "react-aria-components";
import { Button, type ButtonProps } from "../../../ui/Button.tsx";

export function WalletDialog({
  label,
  ariaLabel,
  title,
  tone,
  size,
  children,
}: {
  readonly label: string;
  /** The button's accessible name when `label` alone is ambiguous (several "Remove"). */
  readonly ariaLabel?: string;
  readonly title: string;
  readonly tone?: ButtonProps["tone"];
  readonly size?: ButtonProps["size"];
  readonly children: (close: () => void) => ReactNode;
}) {
  return (
    <DialogTrigger>
      <Button
        tone={tone}
        size={size}
        {...(ariaLabel === undefined ? {} : { "aria-label": ariaLabel })}
      >
        {label}
      </Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <Dialog className="dialog">
            {({ close }) => (
              <>
                <Heading slot="title" className="dialog-title">
                  {title}
                </Heading>
                <div className="dialog-body">{children(close)}</div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
