import type { DepositFormValues } from '@cairn/shared';
import { useFormContext, type UseFormReturn } from 'react-hook-form';
import type { RecordJson } from '../api/records';
import type { DepositController } from '../features/deposit/deposit-controller';
import { useDepositController } from '../features/deposit/useDepositController';
import { renderInDepositForm } from './renderInDepositForm';

/**
 * The editor's controller over a real form, as the deposit form holds it, without the form's
 * widgets: `controller()` is the latest render's, `form` the form it works on.
 */
export function renderController(
  initialDraft: RecordJson | null,
  values?: Partial<DepositFormValues>,
): { controller: () => DepositController; form: UseFormReturn<DepositFormValues> } {
  const holder: { controller?: DepositController } = {};
  function Editor() {
    const form = useFormContext<DepositFormValues>();
    holder.controller = useDepositController({ initialDraft, form });
    return null;
  }
  const { form } = renderInDepositForm(<Editor />, values ? { values } : {});
  return { controller: () => holder.controller!, form };
}
