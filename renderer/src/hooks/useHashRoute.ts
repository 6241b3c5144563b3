/**
 * The current route, following `location.hash`.
 * @module
 */
import { useEffect, useState } from "react";
import { type Route, routeFromHash } from "../routes.ts";

export function useHashRoute(): Route {
  const [route, setRoute] = useState<Route>(() => routeFromHash(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(routeFromHash(window.location.hash));
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
