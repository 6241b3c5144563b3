/**
 * A button that asks before it acts: it opens a modal dialog (React Aria: focus trapped,
 * Escape cancels, focus returns to the button) with what will happen, "Cancel" and the
 * confirming button. `onOpen` runs when the dialog opens (e.g. to check what a restore
 * would bring back); the confirming button waits for `canConfirm`.
 * @module
 */
import { type ReactNode, useState } from "react";
import {
  Dialog as AriaDialog,
  DialogTrigger,
  Heading,
  Modal,
  ModalOverlay,
} from "react-aria-components";
import { Button, type ButtonProps } from "./Button.tsx";

export type ConfirmButtonProps = {
  readonly label: string;
  readonly title: string;
  readonly children: ReactNode;
  /** The confirming button's text (default: the label). */
  readonly confirmLabel?: string;
  readonly tone?: ButtonProps["tone"];
  readonly size?: ButtonProps["size"];
  readonly isDisabled?: boolean;
  readonly canConfirm?: boolean;
  readonly onOpen?: () => void;
  readonly onConfirm: () => void;
};

export function ConfirmButton({
  label,
  title,
  children,
  confirmLabel,
  tone,
  size,
  isDisabled,
  canConfirm = true,
  onOpen,
  onConfirm,
}: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) onOpen?.();
      }}
    >
      <Button tone={tone} size={size} isDisabled={isDisabled === true}>
        {label}
      </Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <AriaDialog className="dialog" role="alertdialog">
            <Heading slot="title" className="dialog-title">
              {title}
            </Heading>
            <div className="dialog-body">{children}</div>
            <div className="dialog-actions">
              <Button tone="quiet" onPress={() => setOpen(false)}>
                Cancel
              </Button>
              <Button
                tone={tone === "danger" ? "danger" : "primary"}
                isDisabled={!canConfirm}
                onPress={() => {
                  setOpen(false);
                  onConfirm();
                }}
              >
                {confirmLabel ?? label}
              </Button>
            </div>
          </AriaDialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
