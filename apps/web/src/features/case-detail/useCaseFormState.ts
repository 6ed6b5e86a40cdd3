import { useState } from 'react';
import type { CaseFormErrors, CaseFormField, CaseFormValues } from './case-form.ts';

/**
 * Values, touched fields and server errors of a case form. A server error stays until its field changes, so a
 * rejected form keeps what the user typed and says what was wrong where.
 */
export function useCaseFormState(initial: CaseFormValues, validate: (values: CaseFormValues) => CaseFormErrors) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<CaseFormField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<CaseFormErrors>({});
  const clientErrors = validate(values);

  const visibleErrors: CaseFormErrors = { ...serverErrors };
  for (const [field, message] of Object.entries(clientErrors) as [CaseFormField, string | undefined][]) {
    if (message !== undefined && (submitted || touched.has(field))) visibleErrors[field] = message;
  }

  const setField = <K extends CaseFormField>(field: K, value: CaseFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setTouched((current) => new Set(current).add(field));
    setServerErrors(({ [field]: _dropped, ...rest }) => rest);
  };

  return {
    values,
    setField,
    clientErrors,
    visibleErrors,
    setServerErrors,
    markSubmitted: () => setSubmitted(true),
  };
}
