// The date picker and its styles, in a chunk of their own: only a record under embargo needs them.
import '@mantine/dates/styles.css';

export { DateInput } from '@mantine/dates';
