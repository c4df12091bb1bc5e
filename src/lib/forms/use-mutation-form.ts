import { useForm, type FieldValues, type Resolver, type UseFormProps, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { firstError } from '../../components/ui/form-message.tsx';

/** A form whose values a zod schema checks: what it reads (input) and what it hands on (output) may differ. */
export type SchemaForm<Input extends FieldValues, Output extends FieldValues> = UseFormReturn<Input, unknown, Output>;

/** react-hook-form with a zod schema as its resolver (the one place that wires zodResolver). */
export function useSchemaForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input>,
  options: Omit<UseFormProps<Input, unknown, Output>, 'resolver'> = {},
): SchemaForm<Input, Output> {
  return useForm<Input, unknown, Output>({
    ...options,
    resolver: zodResolver(schema) as unknown as Resolver<Input, unknown, Output>,
  });
}

/** What the helper needs of a React Query mutation (its toast and cache work stay in the feature's api/ hook). */
interface FormMutation<Variables, Data> {
  mutate: (variables: Variables, options?: { onSuccess?: (data: Data) => void }) => void;
  isPending: boolean;
  error: unknown;
}

interface MutationFormOptions<Input extends FieldValues, Output extends FieldValues, Variables, Data> {
  schema: z.ZodType<Output, Input>;
  defaultValues: UseFormProps<Input, unknown, Output>['defaultValues'];
  mutation: FormMutation<Variables, Data>;
  /** The mutation's variables from the checked values (the values themselves when they are the same). */
  variables: (values: Output) => Variables;
  /** After the mutation succeeded: leave the screen, reset the form… */
  onSuccess?: (data: Data, values: Output, form: SchemaForm<Input, Output>) => void;
  /** The Spanish sentence shown under the form for a failed mutation; without it, the toast alone says so. */
  errorMessage?: (error: unknown) => string;
  /** Other react-hook-form options (mode, delayError…). */
  formOptions?: Omit<UseFormProps<Input, unknown, Output>, 'resolver' | 'defaultValues'>;
}

/**
 * The wiring every form of the app repeated: useForm + zodResolver, a submit that runs the feature's mutation
 * hook with the checked values and then `onSuccess`, and the one message under the form (the first validation
 * error, else the mutation's error). The mutation hook keeps its own toast and cache invalidation.
 */
export function useMutationForm<Input extends FieldValues, Output extends FieldValues, Variables, Data>({
  schema,
  defaultValues,
  mutation,
  variables,
  onSuccess,
  errorMessage,
  formOptions,
}: MutationFormOptions<Input, Output, Variables, Data>) {
  const form = useSchemaForm(schema, { defaultValues, ...formOptions });
  const submit = form.handleSubmit((values) =>
    mutation.mutate(variables(values), { onSuccess: (data) => onSuccess?.(data, values, form) }),
  );
  const message =
    firstError(form.formState.errors) ?? (mutation.error && errorMessage ? errorMessage(mutation.error) : undefined);
  return { form, submit, message, pending: mutation.isPending };
}
