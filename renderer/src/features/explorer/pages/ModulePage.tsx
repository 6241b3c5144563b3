/**
 * One contract module (`#/explorer/module/<name>`). Its code and interfaces arrive later.
 * @module
 */
import { getRouteApi } from "@tanstack/react-router";
import { ComingSoon } from "../../../ui/ComingSoon.tsx";
import { LongValue } from "../../../ui/LongValue.tsx";
import { Notice } from "../../../ui/Notice.tsx";
import { PageTitle } from "../../../ui/PageTitle.tsx";
import { Panel } from "../../../ui/Panel.tsx";
import { moduleNameProblem } from "../model.ts";

const route = getRouteApi("/explorer/module/$name");

export function ModulePage() {
  const { name } = route.useParams();
  const problem = moduleNameProblem(name);
  return (
    <>
      <PageTitle>Module</PageTitle>
      <p className="lead">A contract module deployed on the chains.</p>
      {problem === null ? null : (
        <Notice tone="error">
          <p>{problem}</p>
        </Notice>
      )}
      <Panel id="module" title="This module">
        <dl className="facts">
          <dt>Name</dt>
          <dd>
            <LongValue value={name} what="module name" testId="module-name" />
          </dd>
        </dl>
      </Panel>
      <ComingSoon>
        The module's source, its functions and capabilities, and the chains it is deployed on will
        be shown here.
      </ComingSoon>
    </>
  );
}
