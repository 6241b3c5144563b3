/**
 * The app's button (React Aria: press events for mouse, touch and keyboard alike, a focus
 * ring only for keyboard focus). `tone` picks the look; `onPress`, not `onClick`.
 * @module
 */
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from "react-aria-components";

export type ButtonProps = Omit<AriaButtonProps, "className"> & {
  readonly tone?: "primary" | "secondary" | "quiet" | "danger" | undefined;
  readonly size?: "md" | "sm" | undefined;
};

export function Button({ tone = "secondary", size = "md", ...props }: ButtonProps) {
  return <AriaButton {...props} className={`btn btn-${tone} btn-${size}`} />;
}
