/**
 * A modal dialog opened by a button (React Aria: focus moves in and is trapped there,
 * Escape or "Close" closes it and focus returns to the button, the page behind is inert).
 * @module
 */
import type { ReactNode } from "react";
import {
  Dialog as AriaDialog,
  DialogTrigger,
  Heading,
  Modal,
  ModalOverlay,
} from "react-aria-components";
import { Button, type ButtonProps } from "./Button.tsx";

export type DialogButtonProps = {
  /** The text of the button that opens the dialog. */
  readonly label: string;
  readonly title: string;
  readonly children: ReactNode;
  readonly tone?: ButtonProps["tone"];
  readonly size?: ButtonProps["size"];
};

export function DialogButton({ label, title, children, tone, size }: DialogButtonProps) {
  return (
    <DialogTrigger>
      <Button tone={tone} size={size}>
        {label}
      </Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <AriaDialog className="dialog">
            {({ close }) => (
              <>
                <Heading slot="title" className="dialog-title">
                  {title}
                </Heading>
                <div className="dialog-body">{children}</div>
                <div className="dialog-actions">
                  <Button tone="primary" onPress={close}>
                    Close
                  </Button>
                </div>
              </>
            )}
          </AriaDialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
