import { KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';

// Module constants: dnd-kit remakes its sensors, and with them the context every sortable row
// reads, whenever their options are a new object, so each render of a list would render all of
// its rows again.
/** A press becomes a drag after 4 px, so a click on a drag handle stays a click. */
const POINTER_OPTIONS = { activationConstraint: { distance: 4 } };
const KEYBOARD_OPTIONS = { coordinateGetter: sortableKeyboardCoordinates };

/** The pointer and keyboard sensors of the form's reorderable lists (creators, licenses). */
export function useSortableSensors() {
  return useSensors(
    useSensor(PointerSensor, POINTER_OPTIONS),
    useSensor(KeyboardSensor, KEYBOARD_OPTIONS),
  );
}
